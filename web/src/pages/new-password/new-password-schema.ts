import { object, ref, string } from 'yup';
import { brokenPasswordRules, joinMessageKeys } from '../../password/password-policy';

/*
 * Messages are translation keys. A password that breaks several rules gets every broken rule's message at once
 * (one key per line), as the server would report them, so the user can fix them all in one go.
 */
export const newPasswordSchema = object({
  password: string()
    .required('validation.newPasswordRequired')
    .test('policy', '', function policy(value) {
      const broken = brokenPasswordRules(value ?? '');
      return broken.length === 0 || this.createError({ message: joinMessageKeys(broken) });
    }),
  confirmation: string()
    .required('validation.confirmPasswordRequired')
    .oneOf([ref('password')], 'validation.passwordsDoNotMatch'),
});
