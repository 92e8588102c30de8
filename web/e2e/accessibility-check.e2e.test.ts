/**
 * The accessibility check every browser suite relies on (support/browser.ts, axeViolations) finds what it is there
 * to find: a page with known faults answers them, and the same page without them answers none. Without this, a
 * check that stopped running its rules would pass every screen. axe-core goes into a document once: a second check
 * of the same document sees what changed since the first.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../test-support/chromium';
import { axeViolations } from './support/browser';

let browser: Browser;
beforeAll(async () => (browser = await launchChromium()), 60_000);
afterAll(() => browser?.close());

const page = async (body: string) => {
  const opened = await browser.newPage();
  await opened.setContent(
    `<!doctype html><html lang="en"><head><title>Check</title></head><body><main>${body}</main></body></html>`,
  );
  return opened;
};

test('an image without text, a field without a label and faint text are reported', async () => {
  const faulty = await page(
    '<h1>Sign in</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input id="email">' +
      '<p style="color:#ccc;background:#fff">Faint</p>',
  );
  const ids = (await axeViolations(faulty)).map((violation) => violation.id).sort();
  expect(ids).toEqual(expect.arrayContaining(['color-contrast', 'image-alt', 'label']));
}, 60_000);

test('the same page without those faults has no violation', async () => {
  const fixed = await page(
    '<h1>Sign in</h1><img alt="Logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><label for="email">Email</label>' +
      '<input id="email"><p style="color:#222;background:#fff">Clear</p>',
  );
  expect(await axeViolations(fixed)).toEqual([]);
}, 60_000);

test('a second check of the same document reports a fault that came after the first', async () => {
  const changing = await page('<h1>Sign in</h1><label for="email">Email</label><input id="email">');
  expect(await axeViolations(changing)).toEqual([]);
  await changing.evaluate(() => {
    (window as unknown as { axe: { firstCheck?: boolean } }).axe.firstCheck = true;
    document.querySelector('label')?.remove();
    document
      .querySelector('main')
      ?.insertAdjacentHTML('beforeend', '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">');
  });
  const ids = (await axeViolations(changing)).map((violation) => violation.id).sort();
  expect(ids).toEqual(expect.arrayContaining(['image-alt', 'label']));
  // The same axe-core ran both checks: it was put into the document once.
  expect(await changing.evaluate(() => (window as unknown as { axe: { firstCheck?: boolean } }).axe.firstCheck)).toBe(
    true,
  );
}, 60_000);
