// Compiled by `npm run typecheck`, never run: proves the translation keys stay typed. Each line below must be an
// error; if the English catalogue stopped typing `t` (i18next.d.ts lost, a `string` key type crept back in), the
// `@ts-expect-error` comments would go unused and the typecheck would fail.
import i18n from 'i18next';
import { translationKey } from './keys';
import type { Message } from './failure-messages';

// @ts-expect-error a key missing from en.json
i18n.t('login.noSuchKey');
// @ts-expect-error a yup message written as a key is checked too
translationKey('validation.noSuchRule');
// @ts-expect-error a Message carries a catalogue key, not any string
export const message: Message = { key: 'errors.noSuchError' };

// The same calls with real keys compile.
i18n.t('login.emailLabel');
translationKey('validation.emailRequired');
export const known: Message = { key: 'errors.generic' };
