import { object, string } from 'yup';
import { translationKey } from '../../i18n/keys';
import { CODE_LENGTH } from '../../login/one-time-code';

/** Spec section 5: 'Type in verification code' when empty, otherwise 'Verification code must be 6 digits'. */
export const codeSchema = object({
  code: string()
    .required(translationKey('validation.codeRequired'))
    .matches(new RegExp(`^\\d{${CODE_LENGTH}}$`), translationKey('validation.codeLength')),
});
