import { string } from 'yup';
import { translationKey } from '../../i18n/keys';
import { newPasswordSchema } from '../new-password/new-password-schema';

/** The current password (the proof of the change), then the new one under the spec's rules, typed twice. */
export const changePasswordSchema = newPasswordSchema.shape({
  current: string().required(translationKey('validation.passwordRequired')),
});
