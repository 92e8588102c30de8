import { object, string } from 'yup';
import { emailField } from '../../app/email-field';
import { translationKey } from '../../i18n/keys';

/* Messages are translation keys, translated when shown. */

const passwordField = () =>
  string()
    .required(translationKey('validation.passwordRequired'))
    .test('not-blank', translationKey('validation.passwordRequired'), (value) => Boolean(value?.trim()));

export const loginSchema = object({
  email: emailField(),
  password: passwordField(),
});

export const regionSchema = object({
  region: string().required(translationKey('validation.regionRequired')),
});

/** The region step reloaded: the password, which is never kept, is asked for again with the region. */
export const regionPasswordSchema = object({
  region: string().required(translationKey('validation.regionRequired')),
  password: passwordField(),
});

/** The email step of single sign-on: the same messages as the login form. */
export const ssoSchema = object({
  email: emailField(),
});
