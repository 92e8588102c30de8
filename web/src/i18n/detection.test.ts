import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { DETECTION } from './detection';
import { followHtmlLang } from './html-lang';
import { FALLBACK_LANGUAGE, LANGUAGE_CODES, toLanguageCode } from './languages';

async function detect({ query = '', cookie = '', local = '', session = '' } = {}) {
  window.history.replaceState(null, '', `/login${query}`);
  document.cookie = cookie ? `i18next=${cookie}; path=/` : 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  if (local) window.localStorage.setItem('i18nextLng', local);
  if (session) window.sessionStorage.setItem('i18nextLng', session);
  const instance = i18next.createInstance();
  await instance.use(LanguageDetector).init({
    supportedLngs: [...LANGUAGE_CODES],
    load: 'languageOnly',
    fallbackLng: FALLBACK_LANGUAGE,
    detection: DETECTION,
    resources: Object.fromEntries(LANGUAGE_CODES.map((code) => [code, { translation: { hello: code } }])),
  });
  return instance;
}

afterEach(() => {
  document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  window.history.replaceState(null, '', '/');
});

test('the detection order is query string, cookie, localStorage, sessionStorage, browser, html tag, cached in localStorage', () => {
  expect(DETECTION.order).toEqual(['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag']);
  expect(DETECTION.caches).toEqual(['localStorage']);
});

test('when the query string names a language, it wins over cookie and storage, and is cached in localStorage', async () => {
  const instance = await detect({ query: '?lng=fi', cookie: 'nl', local: 'es', session: 'pt' });
  expect(instance.language).toBe('fi');
  expect(window.localStorage.getItem('i18nextLng')).toBe('fi');
});

test('when there is no query, the cookie wins over localStorage', async () => {
  expect((await detect({ cookie: 'nl', local: 'es' })).language).toBe('nl');
});

test('when there is no query or cookie, localStorage wins over sessionStorage', async () => {
  expect((await detect({ local: 'es', session: 'pt' })).language).toBe('es');
});

test('when only sessionStorage has a language, it is used', async () => {
  expect((await detect({ session: 'pt' })).language).toBe('pt');
});

test('when the language asked for is not supported, falls back to English', async () => {
  expect((await detect({ query: '?lng=de' })).resolvedLanguage).toBe('en');
});

test('when the language changes, <html lang> follows', async () => {
  const instance = await detect({ query: '?lng=sv' });
  followHtmlLang(instance);
  expect(document.documentElement.lang).toBe('sv');
  await instance.changeLanguage('pt');
  expect(document.documentElement.lang).toBe('pt');
});

test.each([
  ['en-GB', 'en'],
  ['pt-BR', 'pt'],
  ['sv', 'sv'],
  ['de-DE', 'en'],
  [undefined, 'en'],
])('when the language tag is %s, the supported language is %s', (tag, code) => {
  expect(toLanguageCode(tag)).toBe(code);
});
