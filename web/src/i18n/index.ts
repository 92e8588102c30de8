import i18n, { type BackendModule } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DETECTION } from './detection';
import { followHtmlLang } from './html-lang';
import { FALLBACK_LANGUAGE, LANGUAGE_CODES } from './languages';
import { loadLocale } from './load-locale';

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    loadLocale(language).then(
      (translations) => callback(null, translations),
      (error: Error) => callback(error, false),
    );
  },
};

followHtmlLang(i18n);

void i18n
  .use(LanguageDetector)
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGE_CODES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: FALLBACK_LANGUAGE,
    detection: DETECTION,
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export default i18n;
