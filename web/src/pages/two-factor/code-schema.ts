import { object, string } from 'yup';
import { CODE_LENGTH } from '../../login/one-time-code';

/** Spec section 5: 'Type in verification code' when empty, otherwise 'Verification code must be 6 digits'. */
export const codeSchema = object({
  code: string()
    .required('validation.codeRequired')
    .matches(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'validation.codeLength'),
});
