/**
 * The region's API reference (/docs, issue 46 §13), served by the region's own route on a free loopback port and
 * read in Debian's headless Chromium: revalidated rather than sent again (Cache-Control and ETag), nothing fetched
 * from another host (the logo and the favicon are the region's), no serious or critical axe finding, and a
 * readable middle column on a 1280 px screen.
 */
import express from 'express';
import { type IncomingHttpHeaders, type Server, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { docsRoute } from '../../server/src/http/docs-page';
import { launchChromium } from '../../test-support/chromium';
import { axeViolations } from './support/browser';
import { ROOT } from './support/stack-paths';

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const app = express();
  app.use(docsRoute(join(ROOT, 'generated', 'docs.html')));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** GET /docs as a browser revalidating it would (Node's fetch adds no-cache to a conditional request). */
function get(
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(`${origin}/docs`, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

/** /docs in a fresh browser of `width` px, once Redoc has drawn the reference; every URL it asked for. */
async function open(width = 1280): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  // Nothing may leave the machine (and nothing from elsewhere may be needed).
  await context.route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => route.abort(),
  );
  const page = await context.newPage();
  await page.goto(`${origin}/docs`);
  await page.waitForFunction(() => (document.getElementById('redoc')?.textContent?.length ?? 0) > 1000, undefined, {
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  return { page, requests };
}

describe('/docs', () => {
  test('is revalidated, not sent again: Cache-Control no-cache and an ETag per encoding, 304 when unchanged', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes).toBe(0);
    // Another encoding is another body: its own validator.
    const gzip = await get({ 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.etag).not.toBe(etag);
  });

  test('asks no other host for anything (the logo is the region own), and has a favicon', async () => {
    const { page, requests } = await open();
    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    const icon = await page.getAttribute('link[rel=icon]', 'href');
    expect(icon).toBeTruthy();
    const logo = await page.evaluate(() =>
      [...document.querySelectorAll('img')].map((image) => ({ src: image.src, loaded: image.naturalWidth > 0 })),
    );
    expect(logo.length).toBeGreaterThan(0);
    for (const image of logo)
      expect(image).toEqual({ src: expect.stringMatching(/^(http:\/\/127|data:)/), loaded: true });
    await page.context().close();
  });

  test('axe finds nothing serious or critical', async () => {
    const { page } = await open();
    const found = (await axeViolations(page)).filter((violation) =>
      ['serious', 'critical'].includes(violation.impact ?? ''),
    );
    expect(found).toEqual([]);
    await page.context().close();
  });

  test('at 1280 px the reference column is wide enough to read (at least 560 px)', async () => {
    const { page } = await open(1280);
    const widths = await page.evaluate(() => {
      const middle = document.querySelector('.api-content > div > div > div');
      return {
        middle: middle?.getBoundingClientRect().width ?? 0,
        paragraph: Math.max(
          ...[...document.querySelectorAll('.api-content p')].slice(0, 20).map((p) => p.getBoundingClientRect().width),
        ),
      };
    });
    expect(widths.paragraph).toBeGreaterThanOrEqual(560);
    await page.context().close();
  });
});
