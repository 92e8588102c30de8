/**
 * The sign-in web app end to end, in Debian's headless Chromium, against two live regions of the core API (fresh
 * databases with the development seed), the production build of the app served by nginx with its production
 * headers, and the demo calling platform, all started here on free loopback ports and stopped at the end. Every
 * screen in every language is checked in screens.e2e.test.ts; here, the flows, and where the focus goes.
 */
import type { Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { awaitMessage, codeIn } from './support/browser';
import { browserSuite } from './support/browser-suite';
import {
  PASSWORD,
  type Platform,
  apiCallsOf,
  countdownText,
  demoPage as demoPageOf,
  expectAnnounced,
  expectProvenSession as expectProven,
  fillLogin,
  expectFocus,
  expectFocusRole,
  isUnavailable,
  loginPathFor,
  refuseProbes,
  secondsInCountdown,
  sentTo,
  text,
} from './support/sign-in-pages';
import type { Stack } from './support/stack';

/*
 * Lockout budget. Each region counts a probe that does not find the account as a failed login for that email hash
 * (5 free per hour, then 30 s doubling) and for the client address (20 free per hour): so every sign-in of a
 * Europe-only account is a "failure" in Brazil. All logins here come from 127.0.0.1, so the accounts are spread
 * to stay under 5 per hash and 20 per address in each region: maria (in both regions, or Europe-only through the
 * academy) costs nothing and is used where any account would do. Codes: at most 10 an hour per user (erik 2, sofia 2).
 */
const PHONE_SOFIA = '+46700000001';

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));

const demoPage = (platform: Platform) => demoPageOf(stack, platform);
const loginPath = (platform: Platform = 'app', extra = '') => loginPathFor(stack, platform, extra);
const apiCalls = (requests: string[]) => apiCallsOf(stack, requests);
const expectProvenSession = (page: Page, platform: Platform, region: string) =>
  expectProven(stack, page, platform, region);
const challengeRequests = (requests: string[]) =>
  requests.filter((request) => /^POST .*\/sessions\/[^/]+\/challenges$/.test(request));

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
    await expectFocus(page, 'input#email');
    await fillLogin(page, 'anna@', '');
    expect(await text(page, '#email-error')).toBe(en.validation.emailInvalid);
    expect(await text(page, '#password-error')).toBe(en.validation.passwordRequired);
    await fillLogin(page, 'anna@demo.test', '');
    await page.locator('#email-error').waitFor({ state: 'detached' });
    expect(await text(page, '#password-error')).toBe(en.validation.passwordRequired);
    await expectFocus(page, 'input#password');
    expect(apiCalls(requests)).toEqual([]);
  });

  test('a wrong password shows Email or password is incorrect on both fields, with the focus on the email field', async () => {
    const { page } = await visit(loginPath());
    await fillLogin(page, 'anna@demo.test', 'Wrong-Password-1!');
    expect(await text(page, '#email-error')).toBe(en.errors.invalidCredentials);
    expect(await text(page, '#password-error')).toBe(en.errors.invalidCredentials);
    await expectFocus(page, 'input#email');
    expect(page.url()).toContain('/login');
  });

  test('a one-region account (anna) started from the demo platform lands back there; Back then returns to the platform, not to a dead sign-in', async () => {
    const { page } = await visit(demoPage('app'));
    expect(await text(page, '#proof')).toBe('No session received yet: log in first.');
    await page.click('#login-link');
    await page.waitForURL((url) => url.href.startsWith(`${stack.web}/login?`));
    await fillLogin(page, 'anna@demo.test', PASSWORD);
    await expectProvenSession(page, 'app', 'eu-north-1');
    await page.goBack();
    await page.waitForURL(demoPage('app'));
    expect(await text(page, '#proof')).toBe('No session received yet: log in first.');
  });

  test('an account in both regions (maria) picks the region (its list takes the focus, its title is announced), and the session is created there', async () => {
    const { page, requests } = await visit(loginPath('admin'));
    await fillLogin(page, 'Maria@Demo.test', PASSWORD);
    await page.locator('#region').waitFor();
    expect(await text(page, 'h1')).toBe(en.region.title);
    await expectFocus(page, 'select#region');
    await expectAnnounced(page, en.region.title);
    expect(await page.locator('#region option').allTextContents()).toEqual([
      en.region.placeholder,
      en.region.europe,
      en.region.brazil,
    ]);
    await page.click('form button[type=submit]');
    expect(await text(page, '#region-error')).toBe(en.validation.regionRequired);
    await expectFocus(page, 'select#region');
    await page.selectOption('#region', 'sa-east-1');
    await page.click('form button[type=submit]');
    await expectProvenSession(page, 'admin', 'sa-east-1');
    expect(requests).toContain(`POST ${stack.brazil.url}/core/v1/sessions`);
    expect(requests).not.toContain(`POST ${stack.europe.url}/core/v1/sessions`);
  });

  test('the back arrow of the region step, pressed with the keyboard, returns to the login form with its heading focused and announced', async () => {
    const { page } = await visit(loginPath('admin'));
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await expectFocus(page, 'select#region');
    await page.keyboard.press('Shift+Tab');
    await expectFocusRole(page, `button:${en.region.back}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'login-title');
    await expectAnnounced(page, en.login.title);
    expect(await page.inputValue('#email')).toBe('maria@demo.test');
  });

  test('email 2FA (erik): the code field has the focus, the countdown has a unit, a reload asks for no new code, the sixth digit submits, and Back after the sign-in is not a dead end', async () => {
    const { page, requests } = await visit(loginPath());
    const since = Date.now();
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    expect(await text(page, 'h1')).toBe(en.twoFactor.titleEmail);
    await page.waitForFunction(() => document.activeElement?.id === 'code');
    const message = await awaitMessage(stack.europe.url, 'erik@demo.test', since);
    expect(message.channel).toBe('email');
    await page.locator('form p', { hasText: 'We sent a 6-digit code to' }).waitFor();
    await expectAnnounced(page, en.twoFactor.sentTo.replace('{{destination}}', 'e***@demo.test'));

    // Resend waits for the server's resendUnavailableUntil (30 s), counting down each second, with its unit.
    const first = await secondsInCountdown(page);
    expect(first).toBeGreaterThanOrEqual(25);
    expect(first).toBeLessThanOrEqual(30);
    expect(await countdownText(page)).toBe(`Another try in ${first} sec`);
    expect(await isUnavailable(page, en.twoFactor.resendEmail)).toBe(true);
    expect(await page.getByRole('button', { name: en.twoFactor.resendSms }).count()).toBe(0);
    await page.waitForFunction(
      (before) => Number(/\d+/.exec(document.querySelector('.countdown')?.textContent ?? '')?.[0]) <= before - 2,
      first,
      { timeout: 5000 },
    );

    // A reload within the wait: the same code, the running countdown, and no new request (no 429, no error).
    await page.reload();
    await page.locator('form p', { hasText: 'We sent a 6-digit code to e***@demo.test.' }).waitFor();
    expect(await secondsInCountdown(page)).toBeLessThan(first);
    expect(await page.locator('[role=alert]').count()).toBe(0);
    expect(challengeRequests(requests)).toHaveLength(1);
    await page.waitForFunction(() => document.activeElement?.id === 'code');

    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    expect(await text(page, '#code-error')).toBe(en.validation.codeLength);
    await expectFocus(page, 'input#code');
    const code = codeIn(message);
    await page.fill('#code', code === '000000' ? '111111' : '000000');
    expect(await text(page, '#code-error')).toBe(en.errors.incorrectCode);
    await page.fill('#code', '');
    await page.keyboard.type(code);
    await expectProvenSession(page, 'app', 'eu-north-1');

    // Back: the sign-in page the user left is gone from the history; the login form of a new sign-in opens.
    await page.goBack();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('email and SMS 2FA (sofia): after the countdown, Resend via SMS pressed with the keyboard keeps the focus, announces the new code, and its pasted message fills in the code', async () => {
    const { page } = await visit(loginPath());
    await fillLogin(page, 'sofia@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    const resendSms = page.getByRole('button', { name: en.twoFactor.resendSms });
    await resendSms.waitFor();
    expect(await isUnavailable(page, en.twoFactor.resendSms)).toBe(true);
    // The server allows another code 30 s after the first: the countdown runs, then the buttons come back.
    await page.locator('.countdown').waitFor();
    await page.waitForFunction(() => !document.querySelector('.countdown'), undefined, { timeout: 40_000 });
    expect(await isUnavailable(page, en.twoFactor.resendSms)).toBe(false);
    const since = Date.now();
    await resendSms.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: en.twoFactor.titleSms }).waitFor();
    await page.locator('form p', { hasText: 'We sent a 6-digit code to +46' }).waitFor();
    await expectAnnounced(
      page,
      en.twoFactor.resent.replace(
        '{{destination}}',
        await page.evaluate(() => /to (\S+)\.$/.exec(document.querySelector('form p')?.textContent ?? '')?.[1] ?? ''),
      ),
    );
    await expectFocus(page, `button:${en.twoFactor.resendSms}`);
    expect(await isUnavailable(page, en.twoFactor.resendSms)).toBe(true);
    const sms = await awaitMessage(stack.europe.url, PHONE_SOFIA, since);
    expect(sms.channel).toBe('sms');
    // The whole message pasted into the field: the code is taken from it and submitted.
    await page.locator('#code').focus();
    await page.evaluate((body) => {
      const clipboard = new DataTransfer();
      clipboard.setData('text/plain', body);
      document
        .getElementById('code')
        ?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, sms.body);
    await expectProvenSession(page, 'app', 'eu-north-1');
  }, 90_000);

  test('a second factor whose sign-in has ended (erik, the session revoked) says so, and Log in again, pressed with the keyboard, returns to the form with the email kept', async () => {
    const { page, requests } = await visit(loginPath('academy', '&clientType=academy'));
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    await page.locator('form p', { hasText: 'We sent a 6-digit code to' }).waitFor();
    // The pending session ends (as it does after 15 minutes): its token no longer works.
    const ended = await page.evaluate(async () => {
      const { session, baseUrl } = JSON.parse(sessionStorage.getItem('signIn.pendingSession') ?? '{}');
      const response = await fetch(`${baseUrl}/core/v1/sessions/${session.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${session.accessToken}`, 'cosafe-core-api-version': '1' },
      });
      return response.status;
    });
    expect(ended).toBeLessThan(300);
    await expectFocus(page, 'input#code');
    await page.keyboard.type('123456');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(en.twoFactor.sessionEnded);
    await expectFocus(page, 'div#two-factor-ended');
    expect(await page.locator('#code').count()).toBe(0);
    await page.keyboard.press('Tab');
    await expectFocus(page, `button:${en.twoFactor.logInAgain}`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.inputValue('#email')).toBe('erik@demo.test');
    await expectFocus(page, 'input#password');
    expect(challengeRequests(requests)).toHaveLength(1);
  });

  test('when every region refuses with 429, the wait counts down with its unit, Log in stays unavailable (focusable) until it ends, then the button takes the focus', async () => {
    const { page, requests } = await visit(loginPath());
    await refuseProbes(stack, page, new Date(Date.now() + 4000));
    await fillLogin(page, 'anna@demo.test', 'Any-Password-1!');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Too many attempts\. Please wait [1-4] seconds? and try again\.$/);
    await expectFocusRole(page, 'alert:');
    expect(await isUnavailable(page, en.login.submit)).toBe(true);
    const asked = apiCalls(requests).length;
    // Pressed anyway (Enter in a field, a click that does not wait for the button): nothing is sent.
    await page.locator('#password').press('Enter');
    await page.getByRole('button', { name: en.login.submit, exact: true }).click({ force: true });
    await page.waitForTimeout(300);
    expect(apiCalls(requests)).toHaveLength(asked);
    // Back on the alert (where the error put the focus), the end of the wait hands the focus to the button.
    await alert.focus();
    await alert.waitFor({ state: 'detached', timeout: 8000 });
    expect(await isUnavailable(page, en.login.submit)).toBe(false);
    await expectFocus(page, 'button#login-submit');
  });

  test('a password field warns while Caps Lock is on, and the warning is read with the field', async () => {
    const { page } = await visit(loginPath());
    await page.locator('#password').focus();
    await page.dispatchEvent('#password', 'keydown', { key: 'A', modifierCapsLock: true });
    expect(await text(page, '#password-notice')).toBe(en.passwordInput.capsLock);
    expect(await page.getAttribute('#password', 'aria-describedby')).toContain('password-notice');
    await page.dispatchEvent('#password', 'keyup', { key: 'CapsLock', modifierCapsLock: false });
    await page.locator('#password-notice').waitFor({ state: 'detached' });
  });

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

  test('forgot password: the email field has the focus, the form validates like login and confirms the same for any email (focus on the confirmation), asking every region', async () => {
    const { page, requests } = await visit(loginPath());
    await page.click(`text=${en.login.forgotPassword}`);
    await page.waitForURL(`${stack.web}/forgot-password`);
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    await expectAnnounced(page, en.forgotPassword.title);
    expect(await page.getAttribute('header.page-heading a', 'href')).toBe('/login');
    await page.keyboard.press('Enter');
    expect(await text(page, '#email-error')).toBe(en.validation.emailRequired);
    await page.fill('#email', 'nobody@');
    await page.click('form button[type=submit]');
    expect(await text(page, '#email-error')).toBe(en.validation.emailInvalid);
    await page.fill('#email', 'nobody@demo.test');
    await page.click('form button[type=submit]');
    expect(await text(page, '[role=status] h2')).toBe(en.forgotPassword.sentTitle);
    await expectFocus(page, 'h2#forgot-password-sent');
    expect(await text(page, '[role=status] p:first-of-type')).toBe(
      en.forgotPassword.sent.replace('{{email}}', 'nobody@demo.test'),
    );
    expect(
      apiCalls(requests)
        .filter((request) => request.startsWith('POST'))
        .sort(),
    ).toEqual(
      [
        `POST ${stack.europe.url}/core/v1/users/password-reset`,
        `POST ${stack.brazil.url}/core/v1/users/password-reset`,
      ].sort(),
    );
    // The back link returns to the login form of this sign-in, its first field focused.
    await page.click('header.page-heading a');
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'email');
  });

  test('the whole sign-in can be done with the keyboard alone, starting in the email field', async () => {
    const { page } = await visit(loginPath('academy', '&clientType=academy'));
    await page.waitForFunction(() => document.activeElement?.id === 'email');
    await page.keyboard.type('maria@demo.test');
    await page.keyboard.press('Tab');
    await expectFocus(page, 'input#password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await expectProvenSession(page, 'academy', 'eu-north-1');
  });
});
