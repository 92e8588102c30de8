import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../i18n/locales/en.json';
import es from '../i18n/locales/es.json';
import fi from '../i18n/locales/fi.json';
import nl from '../i18n/locales/nl.json';
import pt from '../i18n/locales/pt.json';
import sv from '../i18n/locales/sv.json';

export const locales: Record<string, Record<string, unknown>> = { en, sv, nl, fi, pt, es };

/** An i18next instance with every locale loaded synchronously (the app loads them on demand). */
export function createTestI18n(language = 'en'): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: Object.fromEntries(Object.entries(locales).map(([code, translation]) => [code, { translation }])),
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}
