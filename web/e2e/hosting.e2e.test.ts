/**
 * The production build as a host serves it: Debian's nginx with the product's configuration
 * (web/deploy/sign-in.conf.template) and `vite preview`, on free loopback ports, with no API behind them. Every page
 * and file carries the security headers, the CSP allows exactly the build's inline script, and the first paint (a
 * localized shell) needs no JavaScript beyond it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { scriptHash } from '../shell/boot-script';
import { securityHeaders } from '../deploy/security-headers';
import en from '../src/i18n/locales/en.json';
import es from '../src/i18n/locales/es.json';
import fi from '../src/i18n/locales/fi.json';
import nl from '../src/i18n/locales/nl.json';
import pt from '../src/i18n/locales/pt.json';
import sv from '../src/i18n/locales/sv.json';
import { READY_MARK } from '../src/app/hydration';
import { launchChromium } from '../../test-support/chromium';
import { text } from './support/sign-in-pages';
import { buildWeb, startNginx } from './support/hosting';
import { type Spawned, freePort, startProcess, stopProcess, waitForHttp } from '../../test-support/processes';
import { ROOT, TEST_OUTPUT, WEB } from './support/stack';

const API_ORIGINS = ['https://api.eu-north-1.example.test', 'https://api.sa-east-1.example.test'];
const logs = join(TEST_OUTPUT, 'e2e-logs');
let temp: string;
let dist: string;
let nginx: Spawned | undefined;
let preview: Spawned | undefined;
let browser: Browser | undefined;
let site: string;
let previewSite: string;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'sign-in-hosting-'));
  dist = join(temp, 'dist');
  const env = { VITE_API_URL_EU_NORTH_1: API_ORIGINS[0], VITE_API_URL_SA_EAST_1: API_ORIGINS[1] };
  await buildWeb(dist, env, join(logs, 'hosting-build.log'));
  const [port, previewPort] = [await freePort(), await freePort()];
  site = `http://127.0.0.1:${port}`;
  previewSite = `http://127.0.0.1:${previewPort}`;
  nginx = await startNginx({
    dist,
    port,
    apiOrigins: API_ORIGINS,
    dir: join(temp, 'nginx'),
    logFile: join(logs, 'hosting-nginx.log'),
  });
  preview = startProcess(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'preview',
      '--outDir',
      dist,
      '--host',
      '127.0.0.1',
      '--port',
      String(previewPort),
      '--strictPort',
    ],
    {
      cwd: WEB,
      env: { ...process.env, ...env },
      logFile: join(logs, 'hosting-preview.log'),
    },
  );
  await waitForHttp(`${previewSite}/login`, preview, 30_000);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([nginx, preview].map((spawned) => spawned && stopProcess(spawned)));
  rmSync(temp, { recursive: true, force: true });
});

const expected = () => securityHeaders(WEB, API_ORIGINS);
const entryScript = () =>
  /src="(\/assets\/index-[^"]+\.js)"/.exec(readFileSync(join(dist, 'index.html'), 'utf8'))?.[1] ?? '';
const stylesheet = () =>
  /href="(\/assets\/index-[^"]+\.css)"/.exec(readFileSync(join(dist, 'index.html'), 'utf8'))?.[1] ?? '';

/** A sign-in for the main app, on a production build's allow-list. */
const LOGIN = `/login?redirectUrl=${encodeURIComponent('https://app.example-product.com/login')}`;
const PAGES = [
  '/',
  '/login/2fa',
  '/login/sso',
  '/forgot-password',
  '/set-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAA',
  '/reset-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAA',
  '/invalid-redirect',
  '/no/such/page',
];

const LOCALES = { sv, en, nl, fi, pt, es } as const;
type Language = keyof typeof LOCALES;
const langOf = (html: string) => /<html lang="([a-z]+)">/.exec(html)?.[1];

describe('the build served by nginx with web/deploy/sign-in.conf.template', () => {
  test.each(['/login', LOGIN])(
    '%s is the prerendered login screen, with every security header, no caching and no inline script',
    async (path) => {
      const response = await fetch(`${site}${path}`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<div id="root" data-prerendered="login">');
      expect(html).toContain('id="email"');
      expect(html).toContain(`<title>${en.login.title}</title>`);
      expect(html).not.toContain('id="boot-status"');
      for (const [name, value] of Object.entries(expected()))
        expect({ name, value: response.headers.get(name) }).toEqual({ name, value });
      expect(response.headers.get('cache-control')).toBe('no-cache');
      // The answer depends on the language the request asks for: shared caches must keep them apart.
      expect(response.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)];
      expect(inline).toEqual([]);
    },
  );

  test.each([
    ['the query wins over the cookie and the browser', '?lng=fi', 'nl', 'sv-SE,sv;q=0.9', 'fi'],
    ['then the cookie wins over the browser', '', 'nl', 'sv-SE,sv;q=0.9', 'nl'],
    ["then the browser's first supported language (pt-BR is pt)", '', '', 'de-DE,de;q=0.9,pt-BR;q=0.8,sv;q=0.7', 'pt'],
    ['an unsupported query or cookie leaves it to the next', '?lng=de', 'fr', 'ES', 'es'],
    ['with none of them supported, English', '?lng=de', '', 'de-DE,fr;q=0.5', 'en'],
    ['with nothing asked, English', '', '', '', 'en'],
  ] as const)('the language of /login: %s', async (_, query, cookie, acceptLanguage, language) => {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = `i18next=${cookie}`;
    if (acceptLanguage) headers['accept-language'] = acceptLanguage;
    const html = await (await fetch(`${site}/login${query}`, { headers })).text();
    expect(langOf(html)).toBe(language);
    expect(html).toContain(`<title>${LOCALES[language as Language].login.title}</title>`);
    expect(html).toContain(`href="/locales/${language}.json"`);
  });

  test.each(PAGES)('%s is the app, with every security header and no caching', async (path) => {
    const response = await fetch(`${site}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('id="boot-status"');
    for (const [name, value] of Object.entries(expected()))
      expect({ name, value: response.headers.get(name) }).toEqual({ name, value });
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  test('the JavaScript, the stylesheet, the translations and the icon carry the headers too; hashed files are cached for good, translations revalidated', async () => {
    for (const [path, cache, type] of [
      [entryScript(), 'public, max-age=31536000, immutable', /javascript/],
      [stylesheet(), 'public, max-age=31536000, immutable', /text\/css/],
      ['/locales/sv.json', 'no-cache', /application\/json/],
      ['/favicon.svg', 'no-cache', /image\/svg\+xml/],
    ] as const) {
      const response = await fetch(`${site}${path}`);
      expect({ path, status: response.status, cache: response.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cache,
      });
      expect(response.headers.get('content-type')).toMatch(type);
      for (const [name, value] of Object.entries(expected()))
        expect({ path, name, value: response.headers.get(name) }).toEqual({ path, name, value });
    }
  });

  test('a missing build file is a 404 (with the headers) that no cache keeps, never the app in its place', async () => {
    for (const path of ['/assets/index-missing.js', '/assets/index-missing.css', '/locales/de.json']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const response = await fetch(`${site}${path}`, { headers: { 'accept-encoding': encoding } });
        expect({ path, encoding, status: response.status, cache: response.headers.get('cache-control') }).toEqual({
          path,
          encoding,
          status: 404,
          cache: 'no-store',
        });
        expect(response.headers.get('content-security-policy')).toBe(expected()['Content-Security-Policy']);
      }
    }
  });

  test("the build's Brotli and gzip copies are sent to a browser that takes them, with the file's type; else the file", async () => {
    const files = [
      [entryScript(), /javascript/],
      [stylesheet(), /text\/css/],
      ['/locales/sv.json', /application\/json/],
      ['/index.html', /text\/html/],
    ] as const;
    for (const [path, type] of files) {
      const original = readFileSync(join(dist, ...path.split('/')), 'utf8');
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['br;q=1.0, gzip;q=0.8', 'br'],
        ['gzip, deflate', 'gzip'],
        ['gzip, br;q=0', 'gzip'],
        ['identity', null],
      ] as const) {
        // fetch decodes what it receives: the text must be the file itself, whatever the encoding.
        const response = await fetch(`${site}${path}`, { headers: { 'accept-encoding': accept } });
        expect({ path, accept, encoding: response.headers.get('content-encoding') }).toEqual({
          path,
          accept,
          encoding,
        });
        expect(response.headers.get('content-type')).toMatch(type);
        expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
        expect(await response.text()).toBe(original);
      }
    }
    // The prerendered login screen too, in the language asked for.
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await fetch(`${site}/login`, {
        headers: { 'accept-encoding': accept, 'accept-language': 'sv' },
      });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(response.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
      expect(await response.text()).toBe(readFileSync(join(dist, 'prerendered', 'login.sv.html'), 'utf8'));
    }
  });

  test('the build writes a Brotli and a gzip copy of every script, stylesheet, translation and page, each smaller', () => {
    for (const path of [entryScript(), stylesheet(), '/locales/sv.json', '/index.html', '/prerendered/login.sv.html']) {
      const file = join(dist, ...path.split('/'));
      const size = readFileSync(file).length;
      expect({
        path,
        br: readFileSync(`${file}.br`).length < size,
        gz: readFileSync(`${file}.gz`).length < size,
      }).toEqual({ path, br: true, gz: true });
    }
  });

  test("the policy forbids framing and allows only this site, the regions' APIs and exactly the build's inline script", () => {
    const policy = expected()['Content-Security-Policy'];
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain(`connect-src 'self' ${API_ORIGINS.join(' ')}`);
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const inline = [
      ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g),
    ].map((match) => match[1]);
    expect(inline).toHaveLength(1);
    const allowed = /script-src ([^;]+)/.exec(policy)?.[1].split(' ') ?? [];
    expect(allowed).toEqual(["'self'", scriptHash(inline[0])]);
  });

  test('the build ships no source maps', async () => {
    expect((await fetch(`${site}${entryScript()}.map`)).status).toBe(404);
    expect(readFileSync(join(dist, ...entryScript().split('/')), 'utf8')).not.toMatch(/sourceMappingURL/);
  });
});

test('vite preview sends the same security headers as nginx', async () => {
  const [fromNginx, fromPreview] = await Promise.all([fetch(`${site}/login`), fetch(`${previewSite}/login`)]);
  for (const name of Object.keys(expected()))
    expect({ name, preview: fromPreview.headers.get(name) }).toEqual({ name, preview: fromNginx.headers.get(name) });
});

describe('the first paint, in Chromium', () => {
  async function open(
    path: string,
    {
      locale = 'sv-SE',
      blockApp = false,
      prepare,
    }: { locale?: string; blockApp?: boolean; prepare?: (page: Page) => Promise<unknown> } = {},
  ): Promise<{ page: Page; requests: string[]; refused: string[]; noise: string[] }> {
    const context = await browser!.newContext({ locale });
    const requests: string[] = [];
    const refused: string[] = [];
    const noise: string[] = [];
    context.on('request', (request) => requests.push(new URL(request.url()).pathname));
    if (blockApp) await context.route('**/assets/**/*.js', (route) => route.abort());
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Trusted Type/i.test(message.text()))
        refused.push(message.text());
      // A hydration that does not meet what was prerendered is reported as an error (React's recoverable error).
      if (['error', 'warning'].includes(message.type()) && !/Failed to load resource|ERR_FAILED/.test(message.text()))
        noise.push(message.text());
    });
    page.on('pageerror', (error) => noise.push(error.message));
    await prepare?.(page);
    await page.goto(`${site}${path}`);
    return { page, requests, refused, noise };
  }

  const ready = (page: Page) =>
    page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, READY_MARK, { timeout: 20_000 });

  test("before any of the app's JavaScript runs, the login form is on screen in the browser's language and takes typing, with <html lang> and the title set", async () => {
    const { page, requests, refused } = await open(LOGIN, { blockApp: true });
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
    expect(await page.locator('#email').isVisible()).toBe(true);
    expect(await page.locator('#password').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: sv.login.submit, exact: true }).isVisible()).toBe(true);
    await page.click('#email');
    await page.keyboard.type('anna@demo.test');
    expect(await page.inputValue('#email')).toBe('anna@demo.test');
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.title()).toBe(sv.login.title);
    // Enter submits nothing before the app runs (the browser would put the fields in the address).
    await page.click('#password');
    await page.keyboard.type('secret');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${site}${LOGIN}`);
    // The page preloads the Swedish translations, and only them.
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/locales/sv.json')),
    );
    expect(requests.filter((path) => path.startsWith('/locales/'))).toEqual(['/locales/sv.json']);
    expect(await page.evaluate((mark) => performance.getEntriesByName(mark).length, READY_MARK)).toBe(0);
    expect(refused).toEqual([]);
    await page.context().close();
  });

  test.each(Object.keys(LOCALES) as Language[])(
    'the app hydrates the prerendered login screen in %s without a mismatch, a refusal by the policy or a second fetch of its texts',
    async (language) => {
      const { page, requests, refused, noise } = await open(`${LOGIN}&lng=${language}`);
      await ready(page);
      await page.getByRole('heading', { name: LOCALES[language].login.title }).waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'email');
      expect(await page.getAttribute('html', 'lang')).toBe(language);
      expect(await text(page, '#login-platform')).toBe(LOCALES[language].platform.app);
      expect(requests.filter((path) => path.startsWith('/locales/'))).toEqual([`/locales/${language}.json`]);
      expect(requests.filter((path) => path.endsWith('.map'))).toEqual([]);
      expect(refused).toEqual([]);
      expect(noise).toEqual([]);
      // The app remembers the language for the host too, which then serves this language's screen.
      expect((await page.context().cookies()).find((cookie) => cookie.name === 'i18next')?.value).toBe(language);
      await page.context().close();
    },
  );

  test('a language kept only in local storage (which the host cannot see) is shown right after hydration, and the host knows it next time', async () => {
    const { page, noise } = await open(LOGIN, {
      locale: 'en-GB',
      prepare: (page) => page.addInitScript(() => window.localStorage.setItem('i18nextLng', 'es')),
    });
    await ready(page);
    await page.getByRole('heading', { name: es.login.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(noise).toEqual([]);
    await page.reload();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    await page.context().close();
  });

  test("a page that is not prerendered still shows the shell in the browser's language, then the app", async () => {
    const { page, refused } = await open('/forgot-password', { blockApp: true });
    expect(await page.locator('#boot-status').textContent()).toBe(sv.app.loading);
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(refused).toEqual([]);
    await page.context().close();
  });
});
