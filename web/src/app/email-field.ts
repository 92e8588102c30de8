import { string } from 'yup';
import { translationKey } from '../i18n/keys';

/** Something@domain.tld, with no spaces and one @ (spec section 5: "match an email pattern"). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * The email field of the login form, also used on /forgot-password; its messages are translation keys. Imported
 * only by the pages' schemas, which are loaded on first use, so yup stays out of the first screen's JavaScript.
 */
export const emailField = () =>
  string()
    .trim()
    .required(translationKey('validation.emailRequired'))
    .matches(EMAIL_PATTERN, translationKey('validation.emailInvalid'));
