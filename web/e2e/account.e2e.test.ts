/**
 * The account page end to end, in Debian's headless Chromium against two live regions, the production build served
 * by nginx and the demo calling platform: a user signs in with `?next=account`, sees where she is logged in and ends
 * one other session, then all others; adds a passkey (virtual authenticator), renames it after proving her password
 * again and removes it after proving the passkey (the region's first answer to each change is made
 * `401 REAUTHENTICATION_REQUIRED` here, as it is once the sign-in is more than minutes old); changes her password
 * (a common one refused by the region's list, a wrong current one refused, then the change);
 * reads her recent activity; and goes on to the platform with her session. In English (Anna, Europe) and in Swedish
 * (João, Brazil); the page is axe clean and fits 320 px.
 *
 * Lockout budget (see sign-in.e2e.test.ts): anna's sign-in counts as a failed probe in Brazil (1), joao's in Europe
 * (1); each one wrong current password (1 in its region). Sessions made beside the browser probe nothing.
 */
import type { CDPSession, Locator, Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { axeViolations } from './support/browser';
import { browserSuite } from './support/browser-suite';
import { PASSWORD, expectAnnounced, expectProvenSession, fillLogin, loginPathFor } from './support/sign-in-pages';
import type { Stack } from './support/stack';

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));

type Texts = typeof en;
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/{{(\w+)}}/g, (_, name: string) => values[name] ?? '');

const VERSION = { 'cosafe-core-api-version': '1' };

/** A session of `email` made beside the browser (another device of hers). */
async function otherSession(regionUrl: string, email: string, password = PASSWORD) {
  const res = await fetch(`${regionUrl}/core/v1/sessions`, {
    method: 'POST',
    headers: {
      ...VERSION,
      'content-type': 'application/json',
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    },
    body: JSON.stringify({ grantType: 'password', email, password }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; refreshToken: string };
}

/** Whether a session made beside the browser still lives: its refresh answers 200. */
async function stillLives(regionUrl: string, session: { id: string; refreshToken: string }) {
  const res = await fetch(`${regionUrl}/core/v1/sessions/${session.id}`, {
    method: 'PUT',
    headers: { ...VERSION, authorization: `Bearer ${session.refreshToken}` },
  });
  return res.status === 200;
}

async function addVirtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

/** The region's next answer to `method` on a passkey is 401 REAUTHENTICATION_REQUIRED (later ones go through). */
async function requireProofOnce(page: Page, method: 'PATCH' | 'DELETE') {
  let answered = false;
  await page.route('**/core/v1/passkeys/*', async (route) => {
    if (answered || route.request().method() !== method) return route.fallback();
    answered = true;
    await route.fulfill({
      status: 401,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': stack.web },
      body: JSON.stringify({
        status: 'error',
        error: { httpStatus: 401, code: 'REAUTHENTICATION_REQUIRED', message: 'A recent sign-in is needed' },
      }),
    });
  });
}

/** Waits (up to 10 s) until `locator` matches `count` elements, then asserts it. */
async function expectCount(locator: Locator, count: number) {
  const deadline = Date.now() + 10_000;
  while ((await locator.count()) !== count && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  expect(await locator.count()).toBe(count);
}

const cases = [
  { locale: 'en-GB', texts: en, email: 'anna@demo.test', region: 'eu-north-1', regionUrl: () => stack.europe.url },
  {
    locale: 'sv-SE',
    texts: sv as Texts,
    email: 'joao@demo.test',
    region: 'sa-east-1',
    regionUrl: () => stack.brazil.url,
  },
];

describe('the account page in a real browser against two regions', () => {
  test.each(cases)(
    '$locale: sessions, passkeys, password and recent activity, every action, then on to the platform',
    async ({ locale, texts, email, region, regionUrl }) => {
      const t = texts.account;
      const [lostPhone, tablet] = [await otherSession(regionUrl(), email), await otherSession(regionUrl(), email)];
      const { page } = await visit(loginPathFor(stack, 'app', '&next=account'), locale);
      await addVirtualAuthenticator(page);
      await fillLogin(page, email, PASSWORD);
      await page.waitForURL((url) => url.pathname === '/account');
      await page.getByRole('heading', { level: 1, name: t.title }).waitFor();

      // Where she is logged in: this browser, and the two others.
      const sessions = page.getByRole('region', { name: t.sessions.title });
      await sessions.getByRole('listitem').nth(2).waitFor();
      await expectCount(sessions.getByRole('listitem'), 3);
      await sessions.getByText(t.sessions.current, { exact: true }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // End one, then all the others.
      // (Each End is in the item of its session; this browser's item has none.)
      await sessions.getByRole('listitem').getByRole('button').first().click();
      await expectCount(sessions.getByRole('listitem'), 2);
      await sessions.getByRole('button', { name: t.sessions.endOthers }).click();
      await sessions.getByText(t.sessions.onlyHere).waitFor();
      expect([await stillLives(regionUrl(), lostPhone), await stillLives(regionUrl(), tablet)]).toEqual([false, false]);

      // A passkey added on this device (the sign-in is seconds old: no proof asked).
      const passkeys = page.getByRole('region', { name: t.passkeys.title });
      await passkeys.getByRole('button', { name: texts.passkey.add }).click();
      await expectAnnounced(page, texts.passkey.added);
      const item = passkeys.getByRole('listitem');
      await item.first().waitFor();
      const name = (await item.first().getByRole('heading').textContent()) ?? '';

      // Renamed after proving the password again.
      await requireProofOnce(page, 'PATCH');
      await passkeys.getByRole('button', { name: fill(t.passkeys.renameLabel, { name }) }).click();
      await passkeys.getByLabel(t.passkeys.nameLabel).fill('Laptop 320');
      await passkeys.getByRole('button', { name: t.passkeys.save }).click();
      const prompt = page.getByRole('dialog', { name: t.reauth.title });
      await prompt.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await prompt.getByLabel(t.reauth.passwordLabel, { exact: true }).fill(PASSWORD);
      await prompt.getByRole('button', { name: t.reauth.confirm }).click();
      await passkeys.getByRole('heading', { name: 'Laptop 320' }).waitFor();
      await prompt.waitFor({ state: 'detached' });

      // Removed after proving the passkey itself.
      await requireProofOnce(page, 'DELETE');
      await passkeys.getByRole('button', { name: fill(t.passkeys.removeLabel, { name: 'Laptop 320' }) }).click();
      await passkeys.getByRole('button', { name: t.passkeys.removeConfirm }).click();
      await prompt.waitFor();
      await prompt.getByRole('button', { name: t.reauth.usePasskey }).click();
      await passkeys.getByText(t.passkeys.none).waitFor();

      // The password: a common one is refused by the region (its breached list), said on the new password's field;
      // a wrong current one is said on its own field; then the change.
      const form = page.getByRole('form', { name: t.password.title });
      const newPassword = `Account-${locale}-Pass-9`;
      await form.getByLabel(t.password.currentLabel, { exact: true }).fill(PASSWORD);
      await form.getByLabel(t.password.newLabel, { exact: true }).fill('Password123!');
      await form.getByLabel(t.password.confirmLabel, { exact: true }).fill('Password123!');
      await form.getByRole('button', { name: t.password.submit }).click();
      await form.getByText(texts.validation.passwordOnBreachList).waitFor();
      await form.getByLabel(t.password.currentLabel, { exact: true }).fill('Not-the-password-1!');
      await form.getByLabel(t.password.newLabel, { exact: true }).fill(newPassword);
      await form.getByLabel(t.password.confirmLabel, { exact: true }).fill(newPassword);
      await form.getByRole('button', { name: t.password.submit }).click();
      await form.getByText(t.password.wrongCurrent).waitFor();
      await form.getByLabel(t.password.currentLabel, { exact: true }).fill(PASSWORD);
      await form.getByRole('button', { name: t.password.submit }).click();
      await form.getByRole('status').filter({ hasText: t.password.changed }).waitFor();

      // Recent activity, in her language: the sessions she ended are there.
      const activity = page.getByRole('region', { name: t.events.title });
      await activity.getByRole('listitem').filter({ hasText: t.events.kind.sessionsEnded }).first().waitFor();

      // At 320 px wide nothing scrolls sideways, and the page is still axe clean.
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      expect(await axeViolations(page)).toEqual([]);

      // On to the platform with her session.
      await page.getByRole('button', { name: t.continue }).click();
      await expectProvenSession(stack, page, 'app', region);
    },
  );

  test('a platform hands over its session in the fragment: the page shows the account and the tokens leave the address', async () => {
    const session = await otherSession(stack.europe.url, 'maria@demo.test');
    const access = await fetch(`${stack.europe.url}/core/v1/sessions/${session.id}`, {
      method: 'PUT',
      headers: { ...VERSION, authorization: `Bearer ${session.refreshToken}` },
    });
    const { accessToken } = (await access.json()) as { accessToken: string };
    const { page } = await visit(
      `/account#region=eu-north-1&sessionId=${session.id}&accessToken=${accessToken}`,
      'en-GB',
    );
    await page.getByRole('region', { name: en.account.sessions.title }).getByRole('listitem').first().waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect(await axeViolations(page)).toEqual([]);
  });

  test("/account is served as its prerendered shell in the browser's language, and the app takes it over without a mismatch", async () => {
    const served = await fetch(`${stack.web}/account`, { headers: { 'accept-language': 'sv-SE,sv;q=0.9' } });
    const html = await served.text();
    expect(html).toContain('<div id="root" data-prerendered="account">');
    expect(html).toContain(`<title>${sv.account.title}</title>`);
    expect(html).toContain(`>${sv.app.loading}</p>`);

    const errors: string[] = [];
    const { page } = await visit('/account', 'sv-SE', {
      prepare: async (context) =>
        context.on('page', (opened) => {
          opened.on('console', (message) => {
            if (['error', 'warning'].includes(message.type())) errors.push(message.text());
          });
          opened.on('pageerror', (error) => errors.push(error.message));
        }),
    });
    await page.getByRole('heading', { level: 1, name: sv.account.missing.title }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.title()).toBe(sv.account.missing.title);
    expect(errors).toEqual([]);
  });
});
