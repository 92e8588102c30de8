import { object, string } from 'yup';
import { translationKey } from '../../i18n/keys';

/** Something@domain.tld, with no spaces and one @ (spec section 5: "match an email pattern"). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/* Messages are translation keys, translated when shown. */

/** The email field of the login form, also used on /forgot-password. */
export const emailField = () =>
  string()
    .trim()
    .required(translationKey('validation.emailRequired'))
    .matches(EMAIL_PATTERN, translationKey('validation.emailInvalid'));

export const loginSchema = object({
  email: emailField(),
  password: string()
    .required(translationKey('validation.passwordRequired'))
    .test('not-blank', translationKey('validation.passwordRequired'), (value) => Boolean(value?.trim())),
});

export const regionSchema = object({
  region: string().required(translationKey('validation.regionRequired')),
});

/** The email step of single sign-on: the same messages as the login form. */
export const ssoSchema = object({
  email: emailField(),
});
