// Typed translation keys: i18next checks every key given to `t` against the English catalogue, so a key that is
// missing from en.json (a typo, a renamed key) fails `npm run typecheck`. English is the catalogue the other
// languages are tested against (locales.test.ts), and the language the app falls back to.
import type en from './locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
