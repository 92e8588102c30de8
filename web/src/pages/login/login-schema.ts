import { object, string } from 'yup';

/** Something@domain.tld, with no spaces and one @ (spec section 5: "match an email pattern"). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/* Messages are translation keys, translated when shown. */
export const loginSchema = object({
  email: string().trim().required('validation.emailRequired').matches(EMAIL_PATTERN, 'validation.emailInvalid'),
  password: string()
    .required('validation.passwordRequired')
    .test('not-blank', 'validation.passwordRequired', (value) => Boolean(value?.trim())),
});

export const regionSchema = object({
  region: string().required('validation.regionRequired'),
});
