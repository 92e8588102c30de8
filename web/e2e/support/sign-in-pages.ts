// What the browser tests of the sign-in app do again and again: fill the login form, wait for the demo platform's
// proof of a session, read where the focus is and what the live region said.
import type { Page } from 'playwright-core';
import { appReady } from './browser-suite';
import type { Stack } from './stack';

export const PASSWORD = 'Demo-Password-1!';

export type Platform = 'admin' | 'app' | 'academy';

export const demoPage = (stack: Stack, platform: Platform) => `${stack.demo}/${platform}/login`;

/** /login for the demo platform's `platform` page (add `&clientType=academy` etc. with `extra`). */
export const loginPathFor = (stack: Stack, platform: Platform = 'app', extra = '') =>
  `/login?redirectUrl=${encodeURIComponent(demoPage(stack, platform))}${extra}`;

/** Whether a recorded request (`METHOD url`) went to the region at `origin`. */
export const sentTo = (request: string, origin: string) => request.split(' ')[1].startsWith(`${origin}/`);

/** Where the login page asks each region for passwordless options, to offer passkeys in the email field's autofill. */
export const isPasskeyOptionsRequest = (request: string) =>
  /^POST \S+\/core\/v1\/passkeys\/authentication-options$/.test(request);

/**
 * The recorded requests that went to either region's API for the sign-in under test: the passwordless options the
 * login page asks for on arrival (to offer passkeys in the autofill) are left out; passkeys.e2e.test.ts checks them.
 */
export const apiCallsOf = (stack: Stack, requests: string[]) =>
  requests.filter(
    (request) =>
      (sentTo(request, stack.europe.url) || sentTo(request, stack.brazil.url)) && !isPasskeyOptionsRequest(request),
  );

export async function text(page: Page, selector: string): Promise<string> {
  const locator = page.locator(selector);
  await locator.waitFor();
  return (await locator.textContent())?.trim() ?? '';
}

export async function fillLogin(page: Page, email: string, password: string) {
  await page.locator('#email').waitFor();
  // The prerendered form is there before the app runs: fill it once the app has taken it over.
  await appReady(page);
  if (email) await page.fill('#email', email);
  if (password) await page.fill('#password', password);
  await page.click('form button[type=submit]');
}

/** Waits for the demo platform page and its proof that the refresh token works. */
export async function expectProvenSession(stack: Stack, page: Page, platform: Platform, region: string) {
  await page
    .waitForURL((url) => url.href.startsWith(`${demoPage(stack, platform)}?`), { timeout: 20_000 })
    .catch(async (error: Error) => {
      // Say what the page shows instead (an error message, another step) rather than only "timeout".
      const shown = await page
        .locator('main')
        .innerText()
        .catch(() => '(no main)');
      throw new Error(`${error.message}\nAt ${page.url()} the page shows:\n${shown}`);
    });
  await page.locator('#proof[data-state=ok]').waitFor({ timeout: 15_000 });
  expect(await text(page, '#region')).toBe(region);
  expect(await text(page, '#session-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(await text(page, '#refresh-token')).toMatch(/^received \(\d+ characters, not shown\)$/);
  // The single-use refresh token has left the address bar; sessionId and region stay.
  const url = new URL(page.url());
  expect([url.searchParams.has('refreshToken'), url.searchParams.get('region')]).toEqual([false, region]);
}

/** The focused element, as `tag#id` (or `tag` with its text when it has no id). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return element.id
      ? `${element.tagName.toLowerCase()}#${element.id}`
      : `${element.tagName.toLowerCase()}:${element.textContent?.trim()}`;
  });

/** The role and accessible label of the focused element (for elements without an id or text of their own). */
const focusedRole = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return `${element?.getAttribute('role') ?? element?.tagName.toLowerCase()}:${element?.getAttribute('aria-label') ?? ''}`;
  });

/*
 * The app moves the focus in an effect, which runs after the render that a test may already have seen (an error
 * text, a heading): so these wait up to 5 s for the focus to arrive, then assert where it is.
 */
async function expectFocusBy(page: Page, describe: (page: Page) => Promise<string>, expected: string) {
  const deadline = Date.now() + 5000;
  let actual = await describe(page);
  while (actual !== expected && Date.now() < deadline) {
    await page.waitForTimeout(25);
    actual = await describe(page);
  }
  expect(actual).toBe(expected);
}

/** Asserts that the focus is (or within 5 s arrives) on `expected`, written as `tag#id` or `tag:text`. */
export const expectFocus = (page: Page, expected: string) => expectFocusBy(page, focused, expected);

/** Asserts that the focus is (or within 5 s arrives) on the element with this `role:aria-label`. */
export const expectFocusRole = (page: Page, expected: string) => expectFocusBy(page, focusedRole, expected);

/** Waits until the app's polite live region says `words`. */
export const expectAnnounced = (page: Page, words: string) =>
  page.waitForFunction(
    (expected) => document.querySelector('[data-testid=announcer]')?.textContent === expected,
    words,
    { timeout: 5000 },
  );

/** The countdown line as read ('Another try in 28 sec'). */
export const countdownText = (page: Page) => text(page, '.countdown');

export async function secondsInCountdown(page: Page): Promise<number> {
  return Number(/(\d+)/.exec(await countdownText(page))?.[1]);
}

/** Whether the button named `name` is unavailable (aria-disabled: it keeps its place in the tab order). */
export const isUnavailable = async (page: Page, name: string) =>
  (await page.getByRole('button', { name, exact: true }).getAttribute('aria-disabled')) === 'true';

/** Every region refuses the password probe with 429 until `until` (the browser answers for them). */
export const refuseProbes = (stack: Stack, page: Page, until: Date) =>
  page.route('**/core/v1/probes/hash/**', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': stack.web },
      body: JSON.stringify({
        status: 'error',
        error: {
          httpStatus: 429,
          code: 'TOO_MANY_REQUESTS',
          message: 'Too many attempts',
          unavailableUntil: until.toISOString(),
        },
      }),
    }),
  );
