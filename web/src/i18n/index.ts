import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { followHtmlLang } from './html-lang';
import { FALLBACK_LANGUAGE, LANGUAGE_CODES, type LanguageCode, supportedLanguage, toLanguageCode } from './languages';
import { loadLocale } from './load-locale';

/** Where the chosen language is remembered (spec section 9: cached in local storage, read by index.html's boot script). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/**
 * The cookie that carries the chosen language to the host, which serves the prerendered login screen in it before
 * any script runs (web/deploy: query `lng`, this cookie, then Accept-Language).
 */
export const LANGUAGE_COOKIE = 'i18next';

/** One year: as long as the local storage entry lasts in practice. */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** A language's translations; a failed download is tried once more, then English stands in (words beat keys). */
async function translations(language: string): Promise<Record<string, unknown>> {
  try {
    return await loadLocale(language);
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return loadLocale(language).catch((error: unknown) =>
      language === FALLBACK_LANGUAGE ? Promise.reject(error) : loadLocale(FALLBACK_LANGUAGE),
    );
  }
}

const locales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    translations(language).then(
      (loaded) => callback(null, loaded),
      (error: Error) => callback(error, false),
    );
  },
};

/** English is loaded only once a key turns out to be missing (a locale file older than the app, say). */
let englishWanted = false;
function wantEnglish(): void {
  if (englishWanted) return;
  englishWanted = true;
  // The 'loaded' event re-renders the texts (react-i18next listens to it below).
  void i18n.loadLanguages(FALLBACK_LANGUAGE);
}

function remember(language: string): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be off (privacy modes): the language then lasts for this page only.
  }
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${COOKIE_MAX_AGE_S}; samesite=lax${secure}`;
}

/**
 * The language the spec's order (section 9) picks from what only the browser knows (local, then session storage)
 * when neither the query nor the cookie names one, which the host would have followed; null when the host's choice
 * stands. A prerendered page hydrates in the host's language, then switches to this one.
 */
export function languageOnlyTheBrowserKnows(): LanguageCode | null {
  if (supportedLanguage(new URLSearchParams(window.location.search).get('lng'))) return null;
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie);
  if (cookie && supportedLanguage(cookie[1])) return null;
  for (const storage of ['localStorage', 'sessionStorage'] as const) {
    try {
      const stored = supportedLanguage(window[storage].getItem(LANGUAGE_STORAGE_KEY));
      if (stored) return stored;
    } catch {
      // Storage may be off.
    }
  }
  return null;
}

/**
 * Starts i18next in the language index.html's boot script chose (it is on <html lang>), with only that
 * language's translations; resolves once they are in, so the first render shows real text and nothing waits
 * behind a Suspense boundary.
 */
export function startI18n(language: string = toLanguageCode(document.documentElement.lang)) {
  followHtmlLang(i18n);
  i18n.on('languageChanged', remember);
  return i18n
    .use(locales)
    .use(initReactI18next)
    .init({
      lng: toLanguageCode(language),
      supportedLngs: [...LANGUAGE_CODES],
      load: 'languageOnly',
      fallbackLng: () => (englishWanted ? [FALLBACK_LANGUAGE] : []),
      saveMissing: true,
      missingKeyHandler: wantEnglish,
      interpolation: { escapeValue: false },
      react: { useSuspense: false, bindI18n: 'languageChanged loaded' },
    });
}

export default i18n;
