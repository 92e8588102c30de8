/**
 * Every screen and state of the sign-in app, in all six languages, in Debian's headless Chromium against two live
 * regions (its own stack, so its sign-ins have their own lockout and code budgets): each is checked by axe-core
 * (0 violations of WCAG 2.0, 2.1 and 2.2 A and AA, and best practices) and saved as a screenshot in
 * test-output/screenshots/<language>-NN-<screen>.png. The reset-password screens use a real link from the outbox;
 * the password is set back to the demo password.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import es from '../src/i18n/locales/es.json';
import fi from '../src/i18n/locales/fi.json';
import nl from '../src/i18n/locales/nl.json';
import pt from '../src/i18n/locales/pt.json';
import sv from '../src/i18n/locales/sv.json';
import { SCREENSHOTS, awaitMessage, axeViolations, linkIn, screenshot } from './support/browser';
import { browserSuite } from './support/browser-suite';
import {
  PASSWORD,
  type Platform,
  expectProvenSession,
  fillLogin,
  loginPathFor,
  refuseProbes,
  text,
} from './support/sign-in-pages';
import type { Stack } from './support/stack';

let stack: Stack;
const { visit } = browserSuite(
  {
    prepare: () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const file of readdirSync(SCREENSHOTS, { withFileTypes: true }).filter((entry) =>
        entry.name.endsWith('.png'),
      ))
        rmSync(join(SCREENSHOTS, file.name));
    },
  },
  (started) => (stack = started),
);

const loginPath = (platform: Platform = 'app', extra = '') => loginPathFor(stack, platform, extra);
const ACADEMY = '&clientType=academy';
/** Each screen is checked by axe and photographed: a test of many screens takes a while on a busy machine. */
const SLOW = 120_000;

/*
 * Budgets (one stack, all from 127.0.0.1): each language signs in erik and sofia once through the academy (Europe
 * only, so no failed probe in Brazil; 6 codes each of 10 an hour), fails one password for an address nobody has
 * (a fresh identity hash each time), and asks for one reset link (at most 2 per account and region of 3 an hour).
 */
describe.each([
  ['en', 'en-GB', en, { resetEmail: 'anna@demo.test', region: 'europe' as const }],
  ['sv', 'sv-SE', sv, { resetEmail: 'joao@demo.test', region: 'brazil' as const }],
  ['nl', 'nl-NL', nl, { resetEmail: 'erik@demo.test', region: 'europe' as const }],
  ['fi', 'fi-FI', fi, { resetEmail: 'sofia@demo.test', region: 'europe' as const }],
  ['es', 'es-ES', es, { resetEmail: 'maria@demo.test', region: 'europe' as const }],
  ['pt', 'pt-BR', pt, { resetEmail: 'maria@demo.test', region: 'brazil' as const }],
])('every screen in %s', (language, locale, T, reset) => {
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

  test(
    'login: empty, required, incorrect email, Caps Lock, wrong password, too many attempts',
    async () => {
      const page = await open(loginPath());
      await page.getByRole('heading', { name: T.login.title }).waitFor();
      // The detected browser language names the page's language, and the title follows it.
      expect(await page.getAttribute('html', 'lang')).toBe(language);
      expect(await page.title()).toBe(T.login.title);
      await capture(page, 'login');
      await fillLogin(page, '', '');
      await page.locator('#password-error').waitFor();
      await capture(page, 'login-required');
      await fillLogin(page, 'anna@', 'x');
      expect(await text(page, '#email-error')).toBe(T.validation.emailInvalid);
      await capture(page, 'login-incorrect-email');
      await page.locator('#password').focus();
      await page.dispatchEvent('#password', 'keydown', { key: 'A', modifierCapsLock: true });
      expect(await text(page, '#password-notice')).toBe(T.passwordInput.capsLock);
      await capture(page, 'login-caps-lock');

      const academy = await open(loginPath('academy', ACADEMY));
      await fillLogin(academy, `typo-${language}@demo.test`, 'Wrong-Password-1!');
      expect(await text(academy, '#password-error')).toBe(T.errors.invalidCredentials);
      await capture(academy, 'login-wrong-password');

      const throttled = await open(loginPath());
      await refuseProbes(stack, throttled, new Date(Date.now() + 120_000));
      await fillLogin(throttled, 'anna@demo.test', PASSWORD);
      await throttled.getByRole('alert').waitFor();
      expect(await throttled.getByRole('alert').textContent()).toContain(T.errors.rateLimited.split('{{duration}}')[0]);
      await capture(throttled, 'login-too-many-attempts');
    },
    SLOW,
  );

  test(
    'region step',
    async () => {
      const page = await open(loginPath());
      await fillLogin(page, 'maria@demo.test', PASSWORD);
      await page.getByRole('heading', { name: T.region.title }).waitFor();
      await capture(page, 'region');
      await page.click('form button[type=submit]');
      expect(await text(page, '#region-error')).toBe(T.validation.regionRequired);
      await capture(page, 'region-required');
    },
    SLOW,
  );

  test(
    'two-factor: by email, a wrong length, a code used up, a sign-in that has ended; then with the SMS option',
    async () => {
      const page = await open(loginPath('academy', ACADEMY));
      await fillLogin(page, 'erik@demo.test', PASSWORD);
      await page.getByRole('heading', { name: T.twoFactor.titleEmail }).waitFor();
      await page.locator('.countdown').waitFor();
      await page.waitForFunction(() => /@/.test(document.querySelector('form p')?.textContent ?? ''));
      await capture(page, 'two-factor-email');
      await page.fill('#code', '123');
      await page.click('form button[type=submit]');
      expect(await text(page, '#code-error')).toBe(T.validation.codeLength);
      await capture(page, 'two-factor-code-error');
      // The state after five wrong codes, as this tab remembers it (no wrong code is sent to the server for it).
      await page.evaluate(() => {
        const challenge = JSON.parse(sessionStorage.getItem('signIn.otpChallenge') ?? '{}');
        sessionStorage.setItem('signIn.otpChallenge', JSON.stringify({ ...challenge, wrongTries: 5 }));
      });
      await page.reload();
      await page.getByText(T.twoFactor.codeUsedUp).waitFor();
      await capture(page, 'two-factor-code-used-up');
      await page.evaluate(async () => {
        const { session, baseUrl } = JSON.parse(sessionStorage.getItem('signIn.pendingSession') ?? '{}');
        await fetch(`${baseUrl}/core/v1/sessions/${session.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${session.accessToken}`, 'cosafe-core-api-version': '1' },
        });
        const challenge = JSON.parse(sessionStorage.getItem('signIn.otpChallenge') ?? '{}');
        sessionStorage.setItem('signIn.otpChallenge', JSON.stringify({ ...challenge, wrongTries: 0 }));
      });
      await page.reload();
      // Typed only once the code field has the focus it is given on arrival (typed earlier, the keys go nowhere).
      await page.waitForFunction(() => document.activeElement?.id === 'code');
      await page.keyboard.type('123456');
      await page.getByText(T.twoFactor.sessionEnded).waitFor();
      await capture(page, 'two-factor-ended');

      const sofia = await open(loginPath('academy', ACADEMY));
      await fillLogin(sofia, 'sofia@demo.test', PASSWORD);
      await sofia.getByRole('button', { name: T.twoFactor.resendSms }).waitFor();
      await sofia.waitForFunction(() => /@/.test(document.querySelector('form p')?.textContent ?? ''));
      await capture(sofia, 'two-factor-sms-option');
    },
    SLOW,
  );

  test(
    'demo platform after a login',
    async () => {
      const page = await open(loginPath('academy', ACADEMY));
      await fillLogin(page, 'maria@demo.test', PASSWORD);
      await expectProvenSession(stack, page, 'academy', 'eu-north-1');
      await capture(page, 'demo-platform');
    },
    SLOW,
  );

  test(
    'forgot password, its confirmation, and the emailed reset link: form, policy messages, too long, done, used',
    async () => {
      const page = await open('/forgot-password');
      await page.getByRole('heading', { name: T.forgotPassword.title }).waitFor();
      await capture(page, 'forgot-password');
      await page.click('form button[type=submit]');
      await page.locator('#email-error').waitFor();
      await capture(page, 'forgot-password-required');
      const since = Date.now();
      await page.fill('#email', reset.resetEmail);
      await page.click('form button[type=submit]');
      await page.getByRole('heading', { name: T.forgotPassword.sentTitle }).waitFor();
      await capture(page, 'forgot-password-sent');

      const region = reset.region === 'europe' ? stack.europe : stack.brazil;
      const link = linkIn(await awaitMessage(region.url, reset.resetEmail, since));
      expect(link.startsWith(`${stack.web}/reset-password?userId=`)).toBe(true);
      expect(new URL(link).searchParams.get('region')).toBe(region.code);
      const form = await open(link);
      await form.getByRole('heading', { name: T.newPassword.titleReset }).waitFor();
      // The token has left the address bar (and the history) as soon as the page read it; the language stays.
      const left = new URL(form.url()).searchParams;
      expect([left.has('token'), left.has('userId'), left.has('region')]).toEqual([false, false, false]);
      expect(new URL(link).searchParams.has('token')).toBe(true);
      await capture(form, 'reset-password');
      await form.fill('#new-password', 'short');
      await form.fill('#confirm-password', 'other');
      await form.click('form button[type=submit]');
      expect((await text(form, '#new-password-error')).split('\n')).toEqual([
        T.validation.passwordTooShort,
        T.validation.passwordMissingUppercase,
        T.validation.passwordMissingDigit,
        T.validation.passwordMissingSpecialCharacter,
      ]);
      expect(await text(form, '#confirm-password-error')).toBe(T.validation.passwordsDoNotMatch);
      await capture(form, 'reset-password-policy');
      await form.fill('#new-password', `Aa1!${'x'.repeat(253)}`);
      expect(await text(form, '#new-password-error')).toBe(T.validation.passwordTooLong);
      await capture(form, 'reset-password-too-long');
      await form.fill('#new-password', PASSWORD);
      await form.fill('#confirm-password', PASSWORD);
      await form.click('form button[type=submit]');
      await form.getByRole('heading', { name: T.newPassword.doneTitleReset }).waitFor();
      await capture(form, 'reset-password-done');
      // A reload finds the link again in this tab, though it left the address bar: it has been used.
      await form.reload();
      await form.getByRole('heading', { name: T.newPassword.usedTitleReset }).waitFor();
      await capture(form, 'reset-password-used');
    },
    SLOW,
  );

  test(
    'set-password with a link no region knows, and the invalid-redirect page',
    async () => {
      const page = await open('/set-password?userId=1&token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      await page.getByRole('heading', { name: T.newPassword.invalidTitle }).waitFor();
      await capture(page, 'set-password-invalid');
      const invalid = await open('/login?redirectUrl=https%3A%2F%2Fevil.example%2Flogin');
      await invalid.getByRole('heading', { name: T.invalidRedirect.title }).waitFor();
      await capture(invalid, 'invalid-redirect');
    },
    SLOW,
  );

  test(
    'the passkey offer after a sign-in, and a passkey that could not be added',
    async () => {
      // The offer as the app keeps it after a sign-in with a password; its access token is not a session's.
      const page = await open(loginPath());
      await page.getByRole('heading', { name: T.login.title }).waitFor();
      await page.evaluate(
        ({ url, baseUrl }) =>
          sessionStorage.setItem(
            'signIn.passkeyOffer',
            JSON.stringify({
              url,
              region: 'eu-north-1',
              baseUrl,
              session: { id: '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11', accessToken: 'not-a-session' },
            }),
          ),
        { url: `${stack.demo}/app/login`, baseUrl: stack.europe.url },
      );
      await page.goto(`${stack.web}/login/passkey`);
      await page.getByRole('heading', { name: T.passkey.offerTitle }).waitFor();
      await capture(page, 'passkey-offer');
      await page.getByRole('button', { name: T.passkey.add, exact: true }).click();
      expect(await text(page, '[role=alert]')).toBe(T.passkey.errors.registrationFailed);
      await capture(page, 'passkey-offer-failed');
    },
    SLOW,
  );
});
