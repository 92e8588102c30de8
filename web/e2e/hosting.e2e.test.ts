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
import sv from '../src/i18n/locales/sv.json';
import { launchChromium } from './support/chromium';
import { buildWeb, startNginx } from './support/hosting';
import { type Spawned, freePort, startProcess, stopProcess, waitForHttp } from './support/processes';
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
  '/login',
  LOGIN,
  '/login/2fa',
  '/login/sso',
  '/forgot-password',
  '/set-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAA',
  '/reset-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAA',
  '/invalid-redirect',
  '/no/such/page',
];

describe('the build served by nginx with web/deploy/sign-in.conf.template', () => {
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

  test('a missing build file is a 404 (with the headers), never the app in its place', async () => {
    for (const path of ['/assets/index-missing.js', '/locales/de.json']) {
      const response = await fetch(`${site}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers.get('content-security-policy')).toBe(expected()['Content-Security-Policy']);
    }
  });

  test('JavaScript and translations are sent compressed', async () => {
    for (const path of [entryScript(), '/locales/sv.json']) {
      const response = await fetch(`${site}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect({ path, encoding: response.headers.get('content-encoding') }).toEqual({ path, encoding: 'gzip' });
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
  async function swedishPage(blockApp: boolean): Promise<{ page: Page; requests: string[]; refused: string[] }> {
    const context = await browser!.newContext({ locale: 'sv-SE' });
    const requests: string[] = [];
    const refused: string[] = [];
    context.on('request', (request) => requests.push(new URL(request.url()).pathname));
    if (blockApp) await context.route('**/assets/**/*.js', (route) => route.abort());
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Trusted Type/i.test(message.text()))
        refused.push(message.text());
    });
    await page.goto(`${site}${LOGIN}`);
    return { page, requests, refused };
  }

  test("before any of the app's JavaScript runs, the shell shows the logo and Loading in the browser's language, with <html lang> and the title set", async () => {
    const { page, requests, refused } = await swedishPage(true);
    expect(await page.locator('#boot-status').textContent()).toBe(sv.app.loading);
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.title()).toBe(sv.login.title);
    expect(await page.locator('header .logo svg').count()).toBe(1);
    // The boot script preloaded the Swedish translations, and only them.
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/locales/sv.json')),
    );
    expect(requests.filter((path) => path.startsWith('/locales/'))).toEqual(['/locales/sv.json']);
    expect(refused).toEqual([]);
    await page.context().close();
  });

  test('then the app renders the login form in Swedish from the preloaded translations, fetched once, without English and without a refusal by the policy', async () => {
    const { page, requests, refused } = await swedishPage(false);
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    expect(requests.filter((path) => path.startsWith('/locales/'))).toEqual(['/locales/sv.json']);
    expect(requests.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(refused).toEqual([]);
    await page.context().close();
  });
});
