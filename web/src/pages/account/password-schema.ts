import { object, ref, string } from 'yup';
import { translationKey } from '../../i18n/keys';
import { brokenPasswordRules, joinMessageKeys } from '../../password/password-policy';

/**
 * The current password (the proof of the change), then the new one under the spec's rules, typed twice. As on the
 * new-password page, a new password that breaks several rules gets every broken rule's message at once.
 */
export const changePasswordSchema = object({
  currentPassword: string().required(translationKey('validation.passwordRequired')),
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
