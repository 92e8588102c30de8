/**
 * The steps of a sign-in (issue 46 §7-10), in Debian's headless Chromium against two live regions, the development
 * identity provider and the production build served by nginx: where the focus goes when each step opens, what a
 * wrong code and the retyping after it show and say, the way to start over as someone else, and each step in its
 * own address, so that Back and a reload behave on every step (and nothing of the password is kept).
 */
import type { Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import nl from '../src/i18n/locales/nl.json';
import { awaitMessage, codeIn } from './support/browser';
import { browserSuite } from './support/browser-suite';
import {
  PASSWORD,
  type Platform,
  expectAnnounced,
  expectFocus,
  expectProvenSession,
  fillLogin,
  loginPathFor,
  text,
} from './support/sign-in-pages';
import type { Stack } from './support/stack';

const SSO_USER = 'sso-user@sso.demo.test';

let stack: Stack;
// The identity provider's development page imports a web font; nothing leaves the machine.
const { visit } = browserSuite({ stack: { devIdp: true }, loopbackOnly: true }, (started) => (stack = started));
const loginPath = (platform: Platform = 'app', extra = '') => loginPathFor(stack, platform, extra);

/** From the login form: 'Log in with SSO', then the SSO step's heading. */
async function openSso(page: Page) {
  await page.locator('#email').waitFor();
  await page.getByRole('button', { name: en.login.sso }).click();
  await page.getByRole('heading', { level: 1, name: en.sso.title }).waitFor();
}

/** Waits for the development identity provider's login form. */
const atIdp = (page: Page) =>
  page.waitForURL((url) => url.href.startsWith(`${stack.idp}/interaction/`), { timeout: 20_000 });

/**
 * Records, from now on, every text the page's live regions and alerts come to hold (what a screen reader would
 * announce; a countdown's timer is off), in order; `said()` returns them.
 */
async function listenToLiveRegions(page: Page) {
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    const live = (node: Node | null) =>
      (node instanceof Element ? node : node?.parentElement)?.closest(
        '[aria-live=polite], [aria-live=assertive], [role=alert]',
      ) ?? null;
    new MutationObserver((mutations) => {
      const regions = new Set<Element>();
      for (const mutation of mutations) {
        const region = live(mutation.target);
        if (region) regions.add(region);
        for (const added of mutation.addedNodes) {
          const inside = live(added) ?? (added instanceof Element ? added.querySelector('[role=alert]') : null);
          if (inside) regions.add(inside);
        }
      }
      for (const region of regions) {
        const words = region.textContent?.trim() ?? '';
        if (words) said.push(words);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => [...new Set((window as unknown as { said: string[] }).said)]);
}

describe('the focus when a step opens (issue 46 §9)', () => {
  test('the region step puts the focus in its region list, and its title is announced', async () => {
    const { page } = await visit(loginPath('admin'));
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await page.locator('#region').waitFor();
    await expectFocus(page, 'select#region');
    await expectAnnounced(page, en.region.title);
  });

  test('the SSO step puts the focus in its email field, filled in from the login form, so Enter goes on to the identity provider', async () => {
    const { page } = await visit(loginPath());
    await page.locator('#email').waitFor();
    await page.fill('#email', SSO_USER);
    await openSso(page);
    await expectFocus(page, 'input#sso-email');
    expect(await page.inputValue('#sso-email')).toBe(SSO_USER);
    await expectAnnounced(page, en.sso.title);
    await page.keyboard.press('Enter');
    await atIdp(page);
  });

  test('a single sign-on cancelled at the identity provider keeps the email: Start again finds it in place', async () => {
    const { page } = await visit(loginPath());
    await openSso(page);
    await page.fill('#sso-email', SSO_USER);
    await page.keyboard.press('Enter');
    await atIdp(page);
    await page.getByRole('link', { name: /Cancel/ }).click();
    await page.getByRole('heading', { name: en.sso.failedTitle }).waitFor();
    await page.getByRole('link', { name: en.sso.startAgain }).click();
    const field = page.locator('#sso-email, #email').first();
    await field.waitFor();
    expect(await field.inputValue()).toBe(SSO_USER);
  });
});

describe('a wrong code, and typing the next one (issue 46 §10)', () => {
  test('the wrong code is said once; retyping shows and says nothing until the field is left or the code submitted', async () => {
    const { page } = await visit(loginPath());
    const since = Date.now();
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    await expectFocus(page, 'input#code');
    const code = codeIn(await awaitMessage(stack.europe.url, 'erik@demo.test', since));
    await page.locator('form p', { hasText: 'We sent a 6-digit code to' }).waitFor();
    // What was said on arrival is over: from here on, only what the code brings.
    await page.waitForTimeout(300);
    const said = await listenToLiveRegions(page);

    await page.keyboard.type(code === '000000' ? '111111' : '000000');
    expect(await text(page, '#code-error')).toBe(en.errors.incorrectCode);
    await expectFocus(page, 'input#code');
    expect(await said()).toEqual([en.errors.incorrectCode]);

    // Typing the next code: its first digits are not judged, nor read out.
    await page.fill('#code', '');
    await page.keyboard.type('12');
    await page.waitForTimeout(300);
    expect(await page.locator('#code-error').count()).toBe(0);
    expect(await page.getAttribute('#code', 'aria-invalid')).toBeNull();
    expect(await said()).toEqual([en.errors.incorrectCode]);

    // Left half typed, the field says what is wrong (once).
    await page.keyboard.press('Tab');
    expect(await text(page, '#code-error')).toBe(en.validation.codeLength);
    expect(await said()).toEqual([en.errors.incorrectCode, en.validation.codeLength]);

    // Back in the field, the right code signs in.
    await page.fill('#code', '');
    await page.focus('#code');
    await page.keyboard.type(code);
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
  });
});

describe('starting over as someone else (issue 46 §8)', () => {
  test('on a healthy code page, "Log in as someone else" returns to an empty login form and ends the pending sign-in', async () => {
    const { page } = await visit(loginPath());
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    await page.locator('form p', { hasText: 'We sent a 6-digit code to' }).waitFor();
    await page.getByRole('button', { name: en.login.someoneElse }).click();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.inputValue('#email')).toBe('');
    await expectFocus(page, 'input#email');
    expect(await page.evaluate(() => sessionStorage.getItem('signIn.pendingSession'))).toBeNull();
    // The code page is gone with its sign-in: Forward (or its address) leads to the login form.
    await page.goto(`${stack.web}/login/2fa`);
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('on the SSO step, "Log in as someone else" returns to an empty login form', async () => {
    const { page } = await visit(loginPath());
    await page.locator('#email').waitFor();
    await page.fill('#email', SSO_USER);
    await openSso(page);
    await page.getByRole('button', { name: en.login.someoneElse }).click();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.inputValue('#email')).toBe('');
    await expectFocus(page, 'input#email');
  });
});

/** What this tab keeps for the sign-in: never the password, nor a token in the address. */
async function expectNoPasswordKept(page: Page) {
  const kept = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
  expect(kept).not.toContain(PASSWORD);
  expect(page.url()).not.toContain(encodeURIComponent(PASSWORD));
  expect(page.url()).not.toMatch(/token/i);
}

describe('each step in its own address: Back and reload (issue 46 §7)', () => {
  test('the region step is /login/region: a reload keeps it (asking for the password again, which is never kept), and the sign-in goes on', async () => {
    const { page, requests } = await visit(loginPath('admin'));
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await page.locator('#region').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login/region');
    await expectNoPasswordKept(page);
    await page.reload();
    await page.getByRole('heading', { name: en.region.title }).waitFor();
    expect(await page.locator('#region option').allTextContents()).toEqual([
      en.region.placeholder,
      en.region.europe,
      en.region.brazil,
    ]);
    await expectFocus(page, 'select#region');
    // The password was not kept: the step asks for it once more.
    expect(await page.inputValue('#region-password')).toBe('');
    await page.selectOption('#region', 'sa-east-1');
    await page.click('form button[type=submit]');
    expect(await text(page, '#region-password-error')).toBe(en.validation.passwordRequired);
    await page.fill('#region-password', PASSWORD);
    await page.click('form button[type=submit]');
    await expectProvenSession(stack, page, 'admin', 'sa-east-1');
    expect(requests).toContain(`POST ${stack.brazil.url}/core/v1/sessions`);
  });

  test('Back from the region step returns to the login form with the email, and Forward to the region step, which signs in', async () => {
    const { page } = await visit(loginPath('admin'));
    await fillLogin(page, 'maria@demo.test', PASSWORD);
    await page.locator('#region').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.inputValue('#email')).toBe('maria@demo.test');
    await expectFocus(page, 'h1#login-title');
    await page.goForward();
    await page.getByRole('heading', { name: en.region.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login/region');
    // Within the page's life the password typed is still at hand: no need to type it again.
    expect(await page.locator('#region-password').count()).toBe(0);
    await page.selectOption('#region', 'eu-north-1');
    await page.click('form button[type=submit]');
    await expectProvenSession(stack, page, 'admin', 'eu-north-1');
  });

  test('the SSO step is /login/sso/email: a reload keeps it with the email, Back returns to the login form, Back from the identity provider to the step', async () => {
    const { page } = await visit(loginPath());
    await page.locator('#email').waitFor();
    await page.fill('#email', SSO_USER);
    await openSso(page);
    expect(new URL(page.url()).pathname).toBe('/login/sso/email');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: en.sso.title }).waitFor();
    expect(await page.inputValue('#sso-email')).toBe(SSO_USER);
    await expectFocus(page, 'input#sso-email');
    await page.keyboard.press('Enter');
    await atIdp(page);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: en.sso.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login/sso/email');
    expect(await page.inputValue('#sso-email')).toBe(SSO_USER);
    await page.goBack();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.inputValue('#email')).toBe(SSO_USER);
    await expectNoPasswordKept(page);
  });

  test('Back from the code page returns to the login form with the email (the sign-in is not ended): Forward to the code, which signs in', async () => {
    const { page } = await visit(loginPath());
    const since = Date.now();
    await fillLogin(page, 'erik@demo.test', PASSWORD);
    await page.waitForURL(`${stack.web}/login/2fa`);
    const code = codeIn(await awaitMessage(stack.europe.url, 'erik@demo.test', since));
    await expectNoPasswordKept(page);
    await page.goBack();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.inputValue('#email')).toBe('erik@demo.test');
    await expectFocus(page, 'h1#login-title');
    await page.goForward();
    await page.getByRole('heading', { name: en.twoFactor.titleEmail }).waitFor();
    await expectFocus(page, 'input#code');
    await page.keyboard.type(code);
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
  });
});

describe('the language picker (issue 46 §14)', () => {
  test('the arrow keys move through the languages without switching the page; Enter switches', async () => {
    const { page } = await visit(loginPath());
    await page.locator('#email').waitFor();
    await page.focus('#language-picker');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await text(page, 'h1')).toBe(en.login.title);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.documentElement.lang === 'nl');
    expect(await text(page, 'h1')).toBe(nl.login.title);
  });
});
