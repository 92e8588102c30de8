/**
 * The sign-in web app end to end, in Debian's headless Chromium, against two live regions of the core API (fresh
 * databases with the development seed), the production build of the app and the demo calling platform, all
 * started here on free loopback ports and stopped at the end. Screens are checked with axe-core and saved as
 * screenshots (English and Swedish) in test-output/screenshots.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { SCREENSHOTS, awaitMessage, axeViolations, codeIn, linkIn, screenshot } from './support/browser';
import { browserSuite } from './support/browser-suite';
import type { Stack } from './support/stack';

const PASSWORD = 'Demo-Password-1!';

/*
 * Lockout budget. Each region counts a probe that does not find the account as a failed login for that email hash
 * (5 free per hour, then 30 s doubling) and for the client address (20 free per hour): so every sign-in of a
 * Europe-only account is a "failure" in Brazil, and the app stops at any region's 429. All logins here come from
 * 127.0.0.1, so the accounts are spread to stay under 5 per hash and 20 per address in each region: maria (in
 * both regions, or Europe-only through the academy) costs nothing and is used where any account would do.
 */
const PHONE_SOFIA = '+46700000001';

let stack: Stack;
const { visit } = browserSuite(
  {
    prepare: () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const file of readdirSync(SCREENSHOTS, { withFileTypes: true }).filter((entry) => entry.name.endsWith('.png'))) rmSync(join(SCREENSHOTS, file.name));
    },
  },
  (started) => (stack = started),
);

const demoPage = (platform: 'admin' | 'app' | 'academy') => `${stack.demo}/${platform}/login`;
const loginPath = (platform: 'admin' | 'app' | 'academy' = 'app', extra = '') => `/login?redirectUrl=${encodeURIComponent(demoPage(platform))}${extra}`;
/** Whether a recorded request (`METHOD url`) went to the region at `origin`. */
const sentTo = (request: string, origin: string) => request.split(' ')[1].startsWith(`${origin}/`);
const apiCalls = (requests: string[]) => requests.filter((request) => sentTo(request, stack.europe.url) || sentTo(request, stack.brazil.url));

async function text(page: Page, selector: string): Promise<string> {
  const locator = page.locator(selector);
  await locator.waitFor();
  return (await locator.textContent())?.trim() ?? '';
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.locator('#email').waitFor();
  if (email) await page.fill('#email', email);
  if (password) await page.fill('#password', password);
  await page.click('form button[type=submit]');
}

/** Waits for the demo platform page and its proof that the refresh token works. */
async function expectProvenSession(page: Page, platform: 'admin' | 'app' | 'academy', region: string) {
  await page.waitForURL((url) => url.href.startsWith(`${demoPage(platform)}?`), { timeout: 20_000 }).catch(async (error: Error) => {
    // Say what the page shows instead (an error message, another step) rather than only "timeout".
    const shown = await page.locator('main').innerText().catch(() => '(no main)');
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

async function secondsInCountdown(page: Page): Promise<number> {
  const countdown = await text(page, '.countdown');
  return Number(/(\d+)/.exec(countdown)?.[1]);
}

describe('sign-in in a real browser against two regions', () => {
  test('without redirectUrl, /login shows the invalid-redirect warning', async () => {
    const { page, requests } = await visit('/login');
    await page.waitForURL(`${stack.web}/invalid-redirect`);
    expect(await text(page, 'h1')).toBe(en.invalidRedirect.title);
    expect(await text(page, 'main p')).toBe(en.invalidRedirect.description);
    expect(apiCalls(requests)).toEqual([]);
  });

  test.each([
    ['another host', () => 'https://evil.example/login'],
    ['a look-alike host', () => `${stack.demo}.evil.example/app/login`],
    ['another path of the demo platform', () => `${stack.demo}/admin/logout`],
    ['userinfo', () => stack.demo.replace('//', '//anna@') + '/app/login'],
    ['an encoded path', () => `${stack.demo}/app%2Flogin`],
  ])('with a redirectUrl to %s, /login shows the invalid-redirect warning', async (_name, target) => {
    const redirectUrl = target();
    const { page } = await visit(`/login?redirectUrl=${encodeURIComponent(redirectUrl)}`);
    await page.waitForURL(`${stack.web}/invalid-redirect`);
    expect(await text(page, 'h1')).toBe(en.invalidRedirect.title);
  });

  test('each validation message, with nothing sent until both fields pass', async () => {
    const { page, requests } = await visit(loginPath());
    await fillLogin(page, '', '');
    expect(await text(page, '#email-error')).toBe(en.validation.emailRequired);
    expect(await text(page, '#password-error')).toBe(en.validation.passwordRequired);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await fillLogin(page, 'anna@', '');
    expect(await text(page, '#email-error')).toBe(en.validation.emailInvalid);
    expect(await text(page, '#password-error')).toBe(en.validation.passwordRequired);
    await fillLogin(page, 'anna@demo.test', '');
    await page.locator('#email-error').waitFor({ state: 'detached' });
    expect(await text(page, '#password-error')).toBe(en.validation.passwordRequired);
    expect(apiCalls(requests)).toEqual([]);
  });

  test('a wrong password shows Email or password is incorrect on both fields', async () => {
    const { page } = await visit(loginPath());
    await fillLogin(page, 'anna@demo.test', 'Wrong-Password-1!');
    expect(await text(page, '#email-error')).toBe(en.errors.invalidCredentials);
    expect(await text(page, '#password-error')).toBe(en.errors.invalidCredentials);
    expect(page.url()).toContain('/login');
  });

  test('a one-region account (anna) started from the demo platform lands back there with a session the refresh token proves', async () => {
    const { page } = await visit(demoPage('app'));
    expect(await text(page, '#proof')).toBe('No session received yet: log in first.');
    await page.click('#login-link');
    await page.waitForURL((url) => url.href.startsWith(`${stack.web}/login?`));
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    await expectProvenSession(page, 'app', 'eu-north-1');
  });

  test('an account in both regions (maria) picks the region, and the session is created there', async () => {
    const { page, requests } = await visit(loginPath('admin'));
    await fillLogin(page, 'Maria@Demo.test', PASSWORD);
    await page.locator('#region').waitFor();
    expect(await text(page, 'h1')).toBe(en.region.title);
    expect(await page.locator('#region option').allTextContents()).toEqual([en.region.placeholder, en.region.europe, en.region.brazil]);
    await page.click('form button[type=submit]');
    expect(await text(page, '#region-error')).toBe(en.validation.regionRequired);
    await page.selectOption('#region', 'sa-east-1');
    await page.click('form button[type=submit]');
    await expectProvenSession(page, 'admin', 'sa-east-1');
    expect(requests).toContain(`POST ${stack.brazil.url}/core/v1/sessions`);
    expect(requests).not.toContain(`POST ${stack.europe.url}/core/v1/sessions`);
  });

  test('email 2FA (erik): the code comes from the outbox, the resend countdown runs, a wrong code is refused', async () => {
    const { page } = await visit(loginPath());
    const since = Date.now();
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    expect(await text(page, 'h1')).toBe(en.twoFactor.titleEmail);
    const message = await awaitMessage(stack.europe.url, 'erik@demo.test', since);
    expect(message.channel).toBe('email');
    await page.getByText('We sent a 6-digit code to').waitFor();

    // Resend waits for the server's resendUnavailableUntil (30 s), counting down each second.
    const first = await secondsInCountdown(page);
    expect(first).toBeGreaterThanOrEqual(25);
    expect(first).toBeLessThanOrEqual(30);
    expect(await page.getByRole('button', { name: en.twoFactor.resendEmail }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: en.twoFactor.resendSms }).count()).toBe(0);
    await page.waitForFunction((before) => Number(/\d+/.exec(document.querySelector('.countdown')?.textContent ?? '')?.[0]) <= before - 2, first, { timeout: 5000 });

    await page.fill('#code', '12');
    await page.click('form button[type=submit]');
    expect(await text(page, '#code-error')).toBe(en.validation.codeLength);
    const code = codeIn(message);
    await page.fill('#code', code === '000000' ? '111111' : '000000');
    await page.click('form button[type=submit]');
    expect(await text(page, '#code-error')).toBe(en.errors.incorrectCode);
    await page.fill('#code', code);
    await page.click('form button[type=submit]');
    await expectProvenSession(page, 'app', 'eu-north-1');
  });

  test('email and SMS 2FA (sofia): Resend via SMS is shown and, after the countdown, sends an SMS code that verifies', async () => {
    const { page } = await visit(loginPath());
    await fillLogin(page, 'sofia@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    const resendSms = page.getByRole('button', { name: en.twoFactor.resendSms });
    await resendSms.waitFor();
    expect(await resendSms.isDisabled()).toBe(true);
    // The server allows another code 30 s after the first: the countdown runs, then the buttons come back.
    await page.locator('.countdown').waitFor();
    await page.waitForFunction(() => !document.querySelector('.countdown'), undefined, { timeout: 40_000 });
    await page.waitForFunction((name) => [...document.querySelectorAll('button')].some((button) => button.textContent === name && !button.disabled), en.twoFactor.resendSms);
    const since = Date.now();
    await resendSms.click();
    await page.getByRole('heading', { name: en.twoFactor.titleSms }).waitFor();
    await page.getByText('We sent a 6-digit code to +46').waitFor();
    const sms = await awaitMessage(stack.europe.url, PHONE_SOFIA, since);
    expect(sms.channel).toBe('sms');
    await page.fill('#code', codeIn(sms));
    await page.click('form button[type=submit]');
    await expectProvenSession(page, 'app', 'eu-north-1');
  }, 90_000);

  test('the academy (clientType=academy) never asks Brazil: maria signs in to Europe without the region step, joao is unknown', async () => {
    const { page, requests } = await visit(demoPage('academy'));
    expect(await page.getAttribute('#login-link', 'href')).toContain('clientType=academy');
    await page.click('#login-link');
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await expectProvenSession(page, 'academy', 'eu-north-1');

    const joao = await visit(loginPath('academy', '&clientType=academy'));
    await fillLogin(joao.page, 'joao@demo.test', PASSWORD);
    expect(await text(joao.page, '#email-error')).toBe(en.errors.invalidCredentials);
    for (const calls of [requests, joao.requests]) {
      expect(apiCalls(calls).some((request) => sentTo(request, stack.europe.url))).toBe(true);
      expect(apiCalls(calls).filter((request) => sentTo(request, stack.brazil.url))).toEqual([]);
    }
  });

  test('switching the language to Svenska translates the page, sets <html lang> and is remembered', async () => {
    const { page } = await visit(loginPath());
    expect(await text(page, 'h1')).toBe(en.login.title);
    await page.selectOption('#language-picker', 'sv');
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.title()).toBe(sv.login.title);
    await fillLogin(page, '', '');
    expect(await text(page, '#email-error')).toBe(sv.validation.emailRequired);
    await page.reload();
    await page.getByRole('heading', { name: sv.login.title }).waitFor();
  });

  test('forgot password: the request form validates like login and confirms the same for any email, asking every region', async () => {
    const { page, requests } = await visit(loginPath());
    await page.click(`text=${en.login.forgotPassword}`);
    await page.waitForURL(`${stack.web}/forgot-password`);
    expect(await page.getAttribute('header.page-heading a', 'href')).toBe('/login');
    await page.click('form button[type=submit]');
    expect(await text(page, '#email-error')).toBe(en.validation.emailRequired);
    await page.fill('#email', 'nobody@');
    await page.click('form button[type=submit]');
    expect(await text(page, '#email-error')).toBe(en.validation.emailInvalid);
    await page.fill('#email', 'nobody@demo.test');
    await page.click('form button[type=submit]');
    expect(await text(page, '[role=status] h2')).toBe(en.forgotPassword.sentTitle);
    expect(await text(page, '[role=status] p:first-of-type')).toBe(en.forgotPassword.sent.replace('{{email}}', 'nobody@demo.test'));
    expect(apiCalls(requests).filter((request) => request.startsWith('POST')).sort()).toEqual(
      [`POST ${stack.europe.url}/core/v1/users/password-reset`, `POST ${stack.brazil.url}/core/v1/users/password-reset`].sort(),
    );
    // The back link returns to the login form of this sign-in.
    await page.click('header.page-heading a');
    await page.getByRole('heading', { name: en.login.title }).waitFor();
  });

  test('the whole sign-in can be done with the keyboard alone', async () => {
    const { page } = await visit(loginPath('academy', '&clientType=academy'));
    await page.locator('#email').waitFor();
    for (let presses = 0; presses < 10 && (await page.evaluate(() => document.activeElement?.id)) !== 'email'; presses++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type('maria@demo.test');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await expectProvenSession(page, 'academy', 'eu-north-1');
  });
});

/**
 * Every screen, in English and in Swedish: checked by axe-core (0 violations) and saved as a screenshot. The
 * reset-password screens use a real link from the outbox: anna's (Europe) in English and joao's (Brazil, found by
 * asking Europe first) in Swedish; the password is set back to the demo password.
 */
describe.each([
  ['en', 'en-GB', en, { email: 'anna@demo.test', region: 'europe' as const, wrongPasswordEmail: 'anna@demo.test' }],
  ['sv', 'sv-SE', sv, { email: 'joao@demo.test', region: 'brazil' as const, wrongPasswordEmail: 'erik@demo.test' }],
])('every screen in %s', (language, locale, T, resetUser) => {
  /** axe-core violations of the screens captured by the current test, by screen. */
  let violations: Record<string, unknown[]> = {};
  let shot = 0;

  async function capture(page: Page, name: string) {
    await page.evaluate(() => document.fonts.ready);
    const found = await axeViolations(page);
    if (found.length > 0) violations[name] = found;
    shot += 1;
    await screenshot(page, `${language}-${String(shot).padStart(2, '0')}-${name}`);
  }

  async function open(path: string) {
    const visited = await visit(path, locale);
    return visited.page;
  }

  beforeEach(() => {
    violations = {};
  });

  afterEach(() => {
    expect(violations).toEqual({});
  });

  test('login, its validation messages and a wrong password', async () => {
    const page = await open(loginPath());
    await page.getByRole('heading', { name: T.login.title }).waitFor();
    // The detected browser language (en-GB, sv-SE) names the page's language.
    expect(await page.getAttribute('html', 'lang')).toMatch(new RegExp(`^${language}(-|$)`));
    await capture(page, 'login');
    await fillLogin(page, '', '');
    await page.locator('#password-error').waitFor();
    await capture(page, 'login-required');
    await fillLogin(page, 'anna@', 'x');
    expect(await text(page, '#email-error')).toBe(T.validation.emailInvalid);
    await capture(page, 'login-incorrect-email');
    await page.fill('#email', resetUser.wrongPasswordEmail);
    await page.fill('#password', 'Wrong-Password-1!');
    await page.click('form button[type=submit]');
    expect(await text(page, '#password-error')).toBe(T.errors.invalidCredentials);
    await capture(page, 'login-wrong-password');
  });

  test('region step', async () => {
    const page = await open(loginPath());
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await page.getByRole('heading', { name: T.region.title }).waitFor();
    await capture(page, 'region');
    await page.click('form button[type=submit]');
    expect(await text(page, '#region-error')).toBe(T.validation.regionRequired);
    await capture(page, 'region-required');
  });

  test('two-factor by email, then with the SMS option', async () => {
    const page = await open(loginPath());
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.getByRole('heading', { name: T.twoFactor.titleEmail }).waitFor();
    await page.locator('.countdown').waitFor();
    await page.waitForFunction(() => /@/.test(document.querySelector('form p')?.textContent ?? ''));
    await capture(page, 'two-factor-email');
    await page.fill('#code', '123');
    await page.click('form button[type=submit]');
    expect(await text(page, '#code-error')).toBe(T.validation.codeLength);
    await capture(page, 'two-factor-code-error');

    const sofia = await open(loginPath());
    await fillLogin(sofia, 'sofia@demo.test', PASSWORD);
    await sofia.getByRole('button', { name: T.twoFactor.resendSms }).waitFor();
    await sofia.waitForFunction(() => /@/.test(document.querySelector('form p')?.textContent ?? ''));
    await capture(sofia, 'two-factor-sms-option');
  });

  test('demo platform after a login', async () => {
    const page = await open(loginPath('academy', '&clientType=academy'));
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await expectProvenSession(page, 'academy', 'eu-north-1');
    await capture(page, 'demo-platform');
  });

  test('forgot password, its confirmation, and the emailed reset link: form, policy messages, done, used', async () => {
    const page = await open('/forgot-password');
    await page.getByRole('heading', { name: T.forgotPassword.title }).waitFor();
    await capture(page, 'forgot-password');
    await page.click('form button[type=submit]');
    await page.locator('#email-error').waitFor();
    await capture(page, 'forgot-password-required');
    const since = Date.now();
    await page.fill('#email', resetUser.email);
    await page.click('form button[type=submit]');
    await page.getByRole('heading', { name: T.forgotPassword.sentTitle }).waitFor();
    await capture(page, 'forgot-password-sent');

    const region = resetUser.region === 'europe' ? stack.europe : stack.brazil;
    const link = linkIn(await awaitMessage(region.url, resetUser.email, since));
    expect(link.startsWith(`${stack.web}/reset-password?userId=`)).toBe(true);
    const reset = await open(link);
    await reset.getByRole('heading', { name: T.newPassword.titleReset }).waitFor();
    await capture(reset, 'reset-password');
    await reset.fill('#new-password', 'short');
    await reset.fill('#confirm-password', 'other');
    await reset.click('form button[type=submit]');
    expect((await text(reset, '#new-password-error')).split('\n')).toEqual([
      T.validation.passwordTooShort,
      T.validation.passwordMissingUppercase,
      T.validation.passwordMissingDigit,
      T.validation.passwordMissingSpecialCharacter,
    ]);
    expect(await text(reset, '#confirm-password-error')).toBe(T.validation.passwordsDoNotMatch);
    await capture(reset, 'reset-password-policy');
    await reset.fill('#new-password', PASSWORD);
    await reset.fill('#confirm-password', PASSWORD);
    await reset.click('form button[type=submit]');
    await reset.getByRole('heading', { name: T.newPassword.doneTitleReset }).waitFor();
    await capture(reset, 'reset-password-done');
    await reset.reload();
    await reset.getByRole('heading', { name: T.newPassword.usedTitleReset }).waitFor();
    await capture(reset, 'reset-password-used');
  });

  test('set-password with a link no region knows, and the invalid-redirect page', async () => {
    const page = await open('/set-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await page.getByRole('heading', { name: T.newPassword.invalidTitle }).waitFor();
    await capture(page, 'set-password-invalid');
    const invalid = await open('/login?redirectUrl=https%3A%2F%2Fevil.example%2Flogin');
    await invalid.getByRole('heading', { name: T.invalidRedirect.title }).waitFor();
    await capture(invalid, 'invalid-redirect');
  });
});
