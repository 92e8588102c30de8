/**
 * A sign-in that never gets stuck (issue 46), in Debian's headless Chromium against two live regions and the
 * production build served by nginx: code loaded on demand that cannot be fetched ends in a message and loads
 * again on the next press; a press before the app has taken the prerendered form over is not lost.
 */
import type { BrowserContext, Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import { READY_MARK, browserSuite } from './support/browser-suite';
import { PASSWORD, type Platform, expectProvenSession, fillLogin, loginPathFor, text } from './support/sign-in-pages';
import type { Stack } from './support/stack';

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));
const loginPath = (platform: Platform = 'app', extra = '') => loginPathFor(stack, platform, extra);

/**
 * Every request for a chunk whose file name starts with `name` fails (the connection dropped) while `lost` is true;
 * `prepare` installs this on the browser context before the page opens, so no request slips past.
 */
function loseChunk(name: string) {
  const state = { lost: true, refused: 0 };
  const prepare = (context: BrowserContext) =>
    context.route(new RegExp(`/assets/${name}-[^/]*\\.js$`), (route) => {
      if (!state.lost) return route.continue();
      state.refused += 1;
      return route.abort('internetdisconnected');
    });
  return { state, prepare };
}

const busy = (page: Page) => page.locator('#login-submit').getAttribute('aria-busy');

/**
 * The sign-in reaches the platform. The first password checks of freshly started regions can take long on a busy
 * machine: this waits for the session to be created (as long as that takes), then for the platform.
 */
async function expectSignedIn(page: Page) {
  await page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/core/v1/sessions'),
    { timeout: 90_000 },
  );
  await expectProvenSession(stack, page, 'app', 'eu-north-1');
}

describe('code loaded on demand that cannot be fetched (issue 46 §1)', () => {
  test('a lost validation chunk ends the press with "Check your connection and try again", and the next press signs in', async () => {
    const loss = loseChunk('login-schema');
    const chunk = loss.state;
    const { page } = await visit(loginPath(), 'en-GB', { prepare: loss.prepare });
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    expect(await text(page, '[role=alert]')).toBe(en.errors.connection);
    expect(chunk.refused).toBeGreaterThan(0);
    // The press is over: the button is not left busy.
    await page.waitForFunction(() => document.getElementById('login-submit')?.getAttribute('aria-busy') !== 'true');
    expect(await busy(page)).not.toBe('true');
    chunk.lost = false;
    const signedIn = expectSignedIn(page);
    await page.click('form button[type=submit]');
    await signedIn;
  });

  test('a lost network chunk of the sign-in ends the press with the same message, and the next press signs in', async () => {
    const loss = loseChunk('sign-in-flow');
    const chunk = loss.state;
    const { page } = await visit(loginPath(), 'en-GB', { prepare: loss.prepare });
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    expect(await text(page, '[role=alert]')).toBe(en.errors.connection);
    chunk.lost = false;
    const signedIn = expectSignedIn(page);
    await page.click('form button[type=submit]');
    await signedIn;
  });

  test('a lost region step leaves the login form with the message, and the next press opens the step', async () => {
    const loss = loseChunk('region-step');
    const chunk = loss.state;
    const { page } = await visit(loginPath('admin'), 'en-GB', { prepare: loss.prepare });
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    expect(await text(page, '[role=alert]')).toBe(en.errors.connection);
    chunk.lost = false;
    await page.click('form button[type=submit]');
    await page.locator('#region').waitFor();
    expect(await text(page, 'h1')).toBe(en.region.title);
  });
});

describe('a press before the app has taken the prerendered form over (issue 46 §2)', () => {
  /** Holds the app's JavaScript back until `release` is called: the page shows only what the host served. */
  async function holdTheApp() {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    return {
      release,
      prepare: (context: BrowserContext) =>
        context.route(
          (url) =>
            url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js') && !/early-press/.test(url.pathname),
          async (route) => {
            await released;
            await route.continue();
          },
        ),
    };
  }

  test.each([
    ['a click on Log in', (page: Page) => page.click('#login-submit')],
    ['Enter in the password field', (page: Page) => page.press('#password', 'Enter')],
  ])(
    '%s made before the app runs is replayed once it has, and signs in; the password never enters the address',
    async (_name, press) => {
      const held = await holdTheApp();
      const { page, requests } = await visit(loginPath(), 'en-GB', { prepare: held.prepare, waitForApp: false });
      await page.locator('#email').waitFor();
      await page.fill('#email', 'anna@demo.test');
      await page.fill('#password', PASSWORD);
      await press(page);
      expect(await page.evaluate((mark) => performance.getEntriesByName(mark).length, READY_MARK)).toBe(0);
      const signedIn = expectSignedIn(page);
      held.release();
      await signedIn;
      expect(
        requests.filter((request) => request.includes(encodeURIComponent(PASSWORD)) || request.includes(PASSWORD)),
      ).toEqual([]);
    },
  );
});
