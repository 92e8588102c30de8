import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineBootScript } from '../../shell/boot-script';
import { createTestI18n } from '../test/i18n';
import { followHtmlLang } from './html-lang';
import { toLanguageCode } from './languages';
import { locales } from '../test/i18n';

/** index.html's boot script, run as the browser runs it: inline, before any other script. */
const script = inlineBootScript(readFileSync(join(__dirname, '..', '..', 'shell', 'boot.js'), 'utf8'));
const texts = Object.fromEntries(
  Object.entries(locales).map(([code, locale]) => [
    code,
    { title: (locale.login as Record<string, string>).title, loading: (locale.app as Record<string, string>).loading },
  ]),
);

function boot({
  query = '',
  cookie = '',
  local = '',
  session = '',
  browser = ['en-US'],
}: { query?: string; cookie?: string; local?: string; session?: string; browser?: string[] } = {}) {
  window.history.replaceState(null, '', `/login${query}`);
  document.cookie = cookie ? `i18next=${cookie}; path=/` : 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  if (local) window.localStorage.setItem('i18nextLng', local);
  if (session) window.sessionStorage.setItem('i18nextLng', session);
  jest.spyOn(window.navigator, 'languages', 'get').mockReturnValue(browser);
  document.documentElement.lang = 'en';
  document.head.innerHTML = '<title>Log in to the product</title>';
  document.body.innerHTML = `<p id="boot-status"></p><script type="application/json" id="shell-texts">${JSON.stringify(texts)}</script>`;
  // The script runs in the page's global scope, as an inline script does.
  new Function(script)();
  return document.documentElement.lang;
}

afterEach(() => {
  document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  window.history.replaceState(null, '', '/');
});

describe("index.html's boot script (spec section 9: query string, cookie, localStorage, sessionStorage, browser, html tag)", () => {
  test('when the query string names a language, it wins over cookie, storage and browser', () => {
    expect(boot({ query: '?lng=fi', cookie: 'nl', local: 'es', session: 'pt', browser: ['sv-SE'] })).toBe('fi');
  });

  test('when there is no query, the cookie wins over localStorage', () => {
    expect(boot({ cookie: 'nl', local: 'es' })).toBe('nl');
  });

  test('when there is no query or cookie, localStorage wins over sessionStorage', () => {
    expect(boot({ local: 'es', session: 'pt' })).toBe('es');
  });

  test('when only sessionStorage has a language, it is used', () => {
    expect(boot({ session: 'pt', browser: ['sv-SE'] })).toBe('pt');
  });

  test("when nothing is stored, the browser's first supported language is used (pt-BR is pt)", () => {
    expect(boot({ browser: ['de-DE', 'pt-BR', 'sv'] })).toBe('pt');
  });

  test('when the language asked for is not supported, the next place decides; with none, English', () => {
    expect(boot({ query: '?lng=de', browser: ['sv-SE'] })).toBe('sv');
    expect(boot({ query: '?lng=de', browser: ['de-DE'] })).toBe('en');
  });

  test('sets the title and the loading text in that language and preloads its translations, before the app runs', () => {
    boot({ browser: ['sv-SE'] });
    expect(document.title).toBe('Logga in i produkten');
    expect(document.getElementById('boot-status')?.textContent).toBe('Laddar…');
    const preload = document.head.querySelector('link[rel=preload]') as HTMLLinkElement;
    expect([preload.getAttribute('href'), preload.getAttribute('as'), preload.getAttribute('crossorigin')]).toEqual([
      '/locales/sv.json',
      'fetch',
      'anonymous',
    ]);
  });
});

test('when the language changes, <html lang> follows', async () => {
  const instance = createTestI18n('sv');
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
