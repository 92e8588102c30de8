/**
 * What a new user meets on a first visit (issue 27), in Debian's headless Chromium against two live regions and
 * the production build served by nginx: a link that takes the first click, errors only on fields the user
 * changed, the email carried to the forgot-password page, an error page with its own title and focus, one
 * announcement per login error, the show/hide toggle, the code limit, the calling platform's name, the dark
 * colour scheme, and a region that sheds requests at the door (503 with Retry-After).
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { awaitMessage, axeViolations, codeIn } from './support/browser';
import { READY_MARK, appReady, browserSuite } from './support/browser-suite';
import {
  PASSWORD,
  type Platform,
  expectFocus,
  expectProvenSession,
  fillLogin,
  loginPathFor,
  text,
} from './support/sign-in-pages';
import type { Stack } from './support/stack';

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));
const loginPath = (platform: Platform = 'app', extra = '') => loginPathFor(stack, platform, extra);

/** A person's click: the pointer rests on the element, is pressed, held a moment, and released. */
async function humanClick(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(150);
  await page.mouse.up();
}

const errorIn = (page: Page, field: string) => page.locator(`#${field}-error`).count();

/** How many times `words` sit in a live region (aria-live, role=alert or role=status) of the page. */
const inLiveRegions = (page: Page, words: string) =>
  page.evaluate((wanted) => {
    const regions = [...document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=alert], [role=status]')];
    return regions.filter(
      (region) =>
        !regions.some((outer) => outer !== region && outer.contains(region)) && region.textContent?.includes(wanted),
    ).length;
  }, words);

/** The answer of a region that sheds a request at the door. */
const shed = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: {
      'content-type': 'application/json',
      'retry-after': '1',
      'access-control-allow-origin': stack.web,
      'access-control-expose-headers': 'retry-after',
    },
    body: JSON.stringify({
      status: 'error',
      error: { httpStatus: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is busy; try again in a moment' },
    }),
  });

describe('a first visit, as a new user makes it', () => {
  test('the first click on "Forgot your password?" lands, from the autofocused empty email and from a half-typed one', async () => {
    const { page } = await visit(loginPath());
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    await humanClick(page, `text=${en.login.forgotPassword}`);
    await page.waitForURL(`${stack.web}/forgot-password`, { timeout: 3000 });

    const second = await visit(loginPath());
    await second.page.waitForFunction(() => document.activeElement?.id === 'email');
    await second.page.keyboard.type('anna@');
    await humanClick(second.page, `text=${en.login.forgotPassword}`);
    await second.page.waitForURL(`${stack.web}/forgot-password`, { timeout: 3000 });
  });

  test('no error on a field the user did not change: Tab past it, switch the language; a changed field is judged when left', async () => {
    const { page } = await visit(loginPath());
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    await page.keyboard.press('Tab');
    await expectFocus(page, 'input#password');
    await page.selectOption('#language-picker', 'sv');
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
    await page.waitForTimeout(300);
    expect([await errorIn(page, 'email'), await errorIn(page, 'password')]).toEqual([0, 0]);
    await page.fill('#email', 'anna@');
    await page.locator('#email').blur();
    expect(await text(page, '#email-error')).toBe(sv.validation.emailInvalid);
    expect(await errorIn(page, 'password')).toBe(0);
  });

  test('the email typed on the login form is carried to the forgot-password form', async () => {
    const { page } = await visit(loginPath());
    await page.fill('#email', 'anna@demo.test');
    await humanClick(page, `text=${en.login.forgotPassword}`);
    await page.waitForURL(`${stack.web}/forgot-password`);
    await page.getByRole('heading', { name: en.forgotPassword.title }).waitFor();
    expect(await page.inputValue('#email')).toBe('anna@demo.test');
  });

  test('the error page has its own title, and the focus on its heading', async () => {
    const { page } = await visit(loginPath());
    // The forgot-password page's code cannot be loaded (a deploy replaced it, say): the page breaks.
    await page.route('**/assets/forgot-password-page-*.js', (route) => route.abort());
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    await page.click(`text=${en.login.forgotPassword}`);
    await page.getByRole('heading', { name: en.errorPage.title }).waitFor();
    expect(await page.title()).toBe(en.errorPage.title);
    await expectFocus(page, 'h1#error-page-title');
  });

  test('"Email or password is incorrect" is announced once: through the field that takes the focus, by no live region', async () => {
    const { page } = await visit(loginPath());
    await page.route('**/core/v1/probes/hash/**', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'application/json', 'access-control-allow-origin': stack.web },
        body: JSON.stringify({
          region: route.request().url().startsWith(stack.europe.url) ? 'eu-north-1' : 'sa-east-1',
          available: false,
        }),
      }),
    );
    await fillLogin(page, 'anna@demo.test', 'Wrong-Password-1!');
    expect(await text(page, '#email-error')).toBe(en.errors.invalidCredentials);
    await expectFocus(page, 'input#email');
    expect(await page.getAttribute('#email', 'aria-describedby')).toContain('email-error');
    expect(await inLiveRegions(page, en.errors.invalidCredentials)).toBe(0);
  });

  test('the show/hide toggle keeps its name and says its state once (pressed or not)', async () => {
    const { page } = await visit(loginPath());
    const toggle = page.locator('button.field__toggle');
    expect([await toggle.getAttribute('aria-label'), await toggle.getAttribute('aria-pressed')]).toEqual([
      en.passwordInput.show,
      'false',
    ]);
    await toggle.click();
    expect(await page.getAttribute('#password', 'type')).toBe('text');
    expect([await toggle.getAttribute('aria-label'), await toggle.getAttribute('aria-pressed')]).toEqual([
      en.passwordInput.show,
      'true',
    ]);
  });

  test("when the hourly code limit is reached, the code page says so and when a new code can be asked for, on the clock of the browser's country (24 hours in en-GB)", async () => {
    const { page } = await visit(loginPath());
    const nextAt = new Date(Date.now() + 40 * 60_000);
    await page.route('**/core/v1/sessions/*/challenges', (route) =>
      route.fulfill({
        status: 429,
        headers: {
          'content-type': 'application/json',
          'retry-after': '2400',
          'access-control-allow-origin': stack.web,
          'access-control-expose-headers': 'retry-after',
        },
        body: JSON.stringify({
          status: 'error',
          error: {
            httpStatus: 429,
            code: 'TOO_MANY_REQUESTS',
            message: 'Too many requests',
            unavailableUntil: nextAt.toISOString(),
          },
        }),
      }),
    );
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    // The browser is British: its clock has 24 hours (14:05, not 2:05 PM; no AM or PM), in the page's English.
    const time = await page.evaluate(
      (at) => new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit' }).format(new Date(at)),
      nextAt.toISOString(),
    );
    expect(time).toMatch(/^\d{1,2}:\d{2}$/);
    await page.getByText(en.twoFactor.codeLimitReached.replace('{{time}}', time)).waitFor({ timeout: 10_000 });
    expect(await page.getByText(en.twoFactor.sentRecently).count()).toBe(0);
  });

  test('a tab whose sign-in was finished in another tab says so, not that it expired', async () => {
    const { page } = await visit(loginPath());
    const since = Date.now();
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    const message = await awaitMessage(stack.europe.url, 'erik@demo.test', since);
    // A second tab of the same sign-in, as a duplicated tab is: its own copy of the first tab's session storage.
    const saved = await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries(sessionStorage))));
    const second = await page.context().newPage();
    await second.addInitScript((entries) => {
      if (sessionStorage.length > 0) return;
      for (const [key, value] of Object.entries(JSON.parse(entries) as Record<string, string>))
        sessionStorage.setItem(key, value);
    }, saved);
    await second.goto(`${stack.web}/login/2fa`);
    await second.fill('#code', codeIn(message));
    await expectProvenSession(stack, second, 'app', 'eu-north-1');
    // The first tab, untouched: it says where the sign-in went, at once and after a reload.
    await page.getByText(en.twoFactor.finishedElsewhere).waitFor({ timeout: 5000 });
    expect(await page.getByText(en.twoFactor.sessionEnded).count()).toBe(0);
    await page.reload();
    await page.getByText(en.twoFactor.finishedElsewhere).waitFor({ timeout: 10_000 });
    expect(await page.getByText(en.twoFactor.sessionEnded).count()).toBe(0);
  });

  test("the login page names the calling platform under its title, in the page's language", async () => {
    for (const [platform, name] of [
      ['admin', en.platform.admin],
      ['app', en.platform.app],
      ['academy', en.platform.academy],
    ] as const) {
      const { page } = await visit(loginPath(platform));
      await page.getByRole('heading', { name: en.login.title }).waitFor();
      expect(await text(page, '#login-platform')).toBe(name);
    }
    const { page } = await visit(loginPath('admin'), 'sv-SE');
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
    expect(await text(page, '#login-platform')).toBe(sv.platform.admin);
  });

  test('in the dark colour scheme the page is dark, and axe finds nothing', async () => {
    const { page } = await visit(loginPath());
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(3 * 80);
    await fillLogin(page, 'anna@', '');
    await page.locator('#email-error').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('a region that sheds requests at the door', () => {
  test('a shed probe is asked once more after Retry-After, and the sign-in goes through', async () => {
    const { page, requests } = await visit(loginPath());
    const shedOnce = new Set<string>();
    await page.route('**/core/v1/probes/hash/**', (route) => {
      const origin = new URL(route.request().url()).origin;
      if (route.request().method() !== 'POST' || shedOnce.has(origin)) return route.continue();
      shedOnce.add(origin);
      return shed(route);
    });
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
    const probes = requests.filter((request) => /^POST .*\/core\/v1\/probes\/hash\//.test(request));
    expect(probes).toHaveLength(4);
  });

  test('shed again, the user reads that the service is busy, never "Something went wrong" or "Wrong login"', async () => {
    const { page } = await visit(loginPath());
    await page.route('**/core/v1/probes/hash/**', (route) =>
      route.request().method() === 'POST' ? shed(route) : route.continue(),
    );
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    await page.getByText(en.errors.busy).waitFor({ timeout: 10_000 });
    expect(await page.getByText(en.errors.generic).count()).toBe(0);
    expect(await page.getByText(en.errors.wrongLogin).count()).toBe(0);
  });
});

describe('the prerendered login screen (issue 27 §2)', () => {
  /** Holds the app's JavaScript back until `release` is called: the page shows only what the host served. */
  async function holdTheApp() {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    return {
      release,
      prepare: (context: BrowserContext) =>
        context.route('**/assets/**/*.js', async (route) => {
          await released;
          await route.continue();
        }),
    };
  }

  test('what a user types before the app runs is kept when it takes over, and is what signs her in', async () => {
    const held = await holdTheApp();
    const { page } = await visit(loginPath(), 'en-GB', { prepare: held.prepare, waitForApp: false });
    await page.locator('#email').waitFor();
    await page.click('#email');
    await page.keyboard.type('anna@demo.test');
    await page.click('#password');
    await page.keyboard.type(PASSWORD);
    expect(await page.evaluate((mark) => performance.getEntriesByName(mark).length, READY_MARK)).toBe(0);
    held.release();
    await appReady(page);
    // Taken over: the typed values stay in the fields, and the focus where she left it.
    expect(await page.inputValue('#email')).toBe('anna@demo.test');
    expect(await page.inputValue('#password')).toBe(PASSWORD);
    await expectFocus(page, 'input#password');
    // Whatever re-renders the fields now (leaving one, say) keeps them.
    await page.keyboard.press('Shift+Tab');
    expect(await page.inputValue('#password')).toBe(PASSWORD);
    await page.click('form button[type=submit]');
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
  });
});

describe("the region's API reference (/docs)", () => {
  test('loads compressed, under a policy that refuses nothing on it: its own inline scripts by hash, and its own logo', async () => {
    const { page, cspViolations } = await visit(`${stack.europe.url}/docs`, 'en-GB', { waitForApp: false });
    const response = await page.waitForResponse((r) => r.url() === `${stack.europe.url}/docs`).catch(() => null);
    await page.waitForLoadState('load');
    // The reference is on the page, and Redoc's scripts (and the page's logo) had their moment to run and load.
    await page.waitForFunction(() => (document.getElementById('redoc')?.textContent?.length ?? 0) > 1000);
    await page.waitForTimeout(1500);
    expect(cspViolations).toEqual([]);
    const policy = (await page.context().request.get(`${stack.europe.url}/docs`)).headers()['content-security-policy'];
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response === null || ['br', 'gzip'].includes(response.headers()['content-encoding'] ?? '')).toBe(true);
  });
});
