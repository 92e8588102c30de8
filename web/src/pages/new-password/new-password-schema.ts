import { object, ref, string } from 'yup';
import { translationKey } from '../../i18n/keys';
import { brokenPasswordRules, joinMessageKeys } from '../../password/password-policy';

/*
 * Messages are translation keys. A password that breaks several rules gets every broken rule's message at once
 * (one key per line), as the server would report them, so the user can fix them all in one go.
 */
export const newPasswordSchema = object({
  password: string()
    .required(translationKey('validation.newPasswordRequired'))
    .test('policy', '', function policy(value) {
      const broken = brokenPasswordRules(value ?? '');
      return broken.length === 0 || this.createError({ message: joinMessageKeys(broken) });
    }),
  confirmation: string()
    .required(translationKey('validation.confirmPasswordRequired'))
    .oneOf([ref('password')], translationKey('validation.passwordsDoNotMatch')),
});
