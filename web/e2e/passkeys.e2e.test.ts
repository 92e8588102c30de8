/**
 * Passkeys end to end, in Debian's headless Chromium with its virtual authenticator (DevTools protocol: WebAuthn
 * domain, CTAP2, internal transport, resident keys, user verification), against two live regions, the production
 * build served by nginx and the demo calling platform. A user adds a passkey when the app offers one after a sign-in
 * with a password (and code), then signs in with the passkey alone and lands back on the platform in the region
 * holding the account: a Swedish-speaking and an English-speaking user, in each region. The passkey also stands in
 * for the emailed code, a failed ceremony shows its own message, and the link in the notice of the added passkey
 * removes it (on a press, never on opening).
 */
import type { CDPSession, Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { awaitMessage, axeViolations, codeIn } from './support/browser';
import { browserSuite } from './support/browser-suite';
import { PASSWORD, expectProvenSession, fillLogin, loginPathFor, sentTo, text } from './support/sign-in-pages';
import type { Stack } from './support/stack';

/*
 * Lockout budget (see sign-in.e2e.test.ts): a password sign-in of a one-region account counts as a failed probe
 * in the other region. Here: erik 2 (Brazil), anna 1 (Brazil), sofia 1 (Brazil), joao 1 (Europe), maria none.
 * Passkey sign-ins probe nothing. Codes: erik 2.
 */
let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));

type Texts = typeof en;

interface Authenticator {
  cdp: CDPSession;
  authenticatorId: string;
  /** The user handles of the passkeys it holds, decoded (`<region>:<userId>`). */
  userHandles: () => Promise<string[]>;
}

/** A platform authenticator in this page, as a phone or laptop has one (Touch ID, Windows Hello…). */
async function addVirtualAuthenticator(page: Page, { isUserVerified = true } = {}): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified,
      automaticPresenceSimulation: true,
    },
  });
  const userHandles = async () => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    return credentials.map((credential) => Buffer.from(credential.userHandle ?? '', 'base64').toString('utf8'));
  };
  return { cdp, authenticatorId, userHandles };
}

/** A fresh browser in `locale` with a virtual authenticator, at the demo app's login page. */
async function visitWithAuthenticator(locale: string, options?: { isUserVerified?: boolean }) {
  const visited = await visit(loginPathFor(stack, 'app'), locale);
  const authenticator = await addVirtualAuthenticator(visited.page, options);
  // Loaded again with the authenticator in place, as on a device that has one from the start.
  await visited.page.reload();
  return { ...visited, authenticator };
}

const regionUrl = (region: string) => (region === 'eu-north-1' ? stack.europe.url : stack.brazil.url);

/** From the login form to a completed password sign-in: the region step and the emailed code where they come. */
async function signInWithPassword(
  page: Page,
  texts: Texts,
  { email, region, twoFactor = false }: { email: string; region: string; twoFactor?: boolean },
) {
  const since = Date.now();
  await fillLogin(page, email, PASSWORD);
  if (email === 'maria@demo.test') {
    await page.locator('#region').waitFor();
    await page.selectOption('#region', region);
    await page.click('form button[type=submit]');
  }
  if (twoFactor) {
    await page.waitForURL(`${stack.web}/login/2fa`);
    expect(await text(page, 'h1')).toBe(texts.twoFactor.titleEmail);
    await page.fill('#code', codeIn(await awaitMessage(regionUrl(region), email, since)));
  }
}

/** The offer after the sign-in: its heading in the user's language, axe clean; then Add a passkey. */
async function acceptOffer(page: Page, texts: Texts) {
  await page.waitForURL(`${stack.web}/login/passkey`);
  expect(await text(page, 'h1')).toBe(texts.passkey.offerTitle);
  await page.waitForFunction(() => document.activeElement?.id === 'passkey-offer-title');
  expect(await axeViolations(page)).toEqual([]);
  // Keyboard only: from the heading, Tab reaches "Add a passkey" first.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(texts.passkey.add);
  await page.keyboard.press('Enter');
}

/** The requests of a passwordless sign-in: options from every region, the session from the passkey's only. */
function expectPasswordless(requests: string[], region: string) {
  for (const regionOrigin of [stack.europe.url, stack.brazil.url])
    expect(requests).toContain(`POST ${regionOrigin}/core/v1/passkeys/authentication-options`);
  const sessions = requests.filter((request) => request.startsWith('POST ') && request.endsWith('/core/v1/sessions'));
  expect(sessions).toEqual([`POST ${regionUrl(region)}/core/v1/sessions`]);
  expect(requests.some((request) => request.includes('/probes/'))).toBe(false);
}

/** From the next load on, the browser says it has no autofill for passkeys (conditional mediation). */
async function withoutPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    if (window.PublicKeyCredential)
      Object.defineProperty(window.PublicKeyCredential, 'isConditionalMediationAvailable', {
        value: () => Promise.resolve(false),
      });
  });
}

/** The removal link in the notice of the added passkey the region sent to `to`, waiting for it to arrive. */
async function removalLinkFor(regionOrigin: string, to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${regionOrigin}/dev/outbox?to=${encodeURIComponent(to)}`);
    const { data } = (await response.json()) as { data: { body: string }[] };
    for (const message of data) {
      const link = /https?:\/\/\S+\/remove-passkey\?\S+/.exec(message.body)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No passkey removal link to ${to} at ${regionOrigin}/dev/outbox within ${timeoutMs} ms`);
}

describe('passkeys in a real browser (virtual authenticator) against two regions', () => {
  test.each([
    [
      'a Swedish-speaking user in Europe, with an emailed code (erik)',
      'sv-SE',
      sv,
      'erik@demo.test',
      'eu-north-1',
      true,
    ],
    ['an English-speaking user in Brazil (joao)', 'en-GB', en, 'joao@demo.test', 'sa-east-1', false],
    ['an English-speaking user in Europe (anna)', 'en-GB', en, 'anna@demo.test', 'eu-north-1', false],
    [
      'a Swedish-speaking user in Brazil, who picks the region (maria)',
      'sv-SE',
      sv,
      'maria@demo.test',
      'sa-east-1',
      false,
    ],
  ] as const)(
    '%s adds a passkey when offered after the sign-in, signs in with it alone, back to the platform, then removes it by the emailed link',
    async (_name, locale, texts, email, region, twoFactor) => {
      const { page, requests, authenticator } = await visitWithAuthenticator(locale);
      await signInWithPassword(page, texts, { email, region, twoFactor });
      await acceptOffer(page, texts);
      await expectProvenSession(stack, page, 'app', region);

      // The passkey is on the device, its user handle naming the region that holds the account.
      const handles = await authenticator.userHandles();
      expect(handles).toHaveLength(1);
      expect(handles[0].startsWith(`${region}:`)).toBe(true);
      expect(requests).toContain(`POST ${regionUrl(region)}/core/v1/passkeys`);

      // Passwordless through the email field's autofill: the virtual authenticator answers the page's conditional
      // request at once, as a user picking the passkey from the field's suggestions. Every region gives a challenge;
      // only the passkey's region creates the session, and no password is probed.
      let before = requests.length;
      await page.goto(`${stack.web}${loginPathFor(stack, 'app')}`);
      await expectProvenSession(stack, page, 'app', region);
      expectPasswordless(requests.slice(before), region);

      // Passwordless with the button, in a browser without the autofill for passkeys.
      await withoutPasskeyAutofill(page);
      before = requests.length;
      await page.goto(`${stack.web}${loginPathFor(stack, 'app')}`);
      const button = page.getByRole('button', { name: texts.passkey.signIn, exact: true });
      await button.waitFor();
      expect(await page.getAttribute('#email', 'autocomplete')).toBe('username webauthn');
      expect(await axeViolations(page)).toEqual([]);
      // Keyboard only: from the SSO button, Tab reaches it, and Enter starts the ceremony.
      await page.getByRole('button', { name: texts.login.sso, exact: true }).focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('passkey-sign-in');
      await page.keyboard.press('Enter');
      await expectProvenSession(stack, page, 'app', region);
      expectPasswordless(requests.slice(before), region);

      if (twoFactor) {
        // The passkey, offered before any code is sent (the autofill is off, or it would sign in at once): no offer
        // afterwards, since the sign-in used a passkey.
        before = requests.length;
        await page.goto(`${stack.web}${loginPathFor(stack, 'app')}`);
        await fillLogin(page, email, PASSWORD);
        await page.waitForURL(`${stack.web}/login/2fa`);
        const instead = page.getByRole('button', { name: texts.passkey.useFirst, exact: true });
        await instead.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await instead.click();
        await expectProvenSession(stack, page, 'app', region);
        expect(
          requests
            .slice(before)
            .filter((request) => sentTo(request, regionUrl(region)) && request.startsWith('PATCH ')),
        ).toHaveLength(1);
      }

      // The notice of the added passkey links to its removal in the account's region: opening the link removes
      // nothing (mail scanners open links); the button does, once.
      const link = await removalLinkFor(regionUrl(region), email);
      expect(link.startsWith(`${stack.web}/remove-passkey?token=`)).toBe(true);
      before = requests.length;
      await page.goto(link);
      await page.getByRole('heading', { name: texts.removePasskey.title, exact: true }).waitFor();
      expect(requests.slice(before).some((request) => request.includes('/passkeys/removal'))).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: texts.removePasskey.submit, exact: true }).click();
      await page.getByRole('heading', { name: texts.removePasskey.doneTitle, exact: true }).waitFor();
      expect(requests.slice(before).filter((request) => request.includes('/passkeys/removal'))).toEqual([
        `POST ${regionUrl(region)}/core/v1/passkeys/removal`,
      ]);
      await page.goto(link);
      await page.getByRole('button', { name: texts.removePasskey.submit, exact: true }).click();
      await page.getByRole('heading', { name: texts.removePasskey.goneTitle, exact: true }).waitFor();
    },
  );

  test('a device that does not verify the user: adding the passkey fails with its own message, and Not now still continues to the platform', async () => {
    const { page, authenticator } = await visitWithAuthenticator('en-GB', { isUserVerified: false });
    await signInWithPassword(page, en, { email: 'sofia@demo.test', region: 'eu-north-1', twoFactor: true });
    await page.waitForURL(`${stack.web}/login/passkey`);
    await page.getByRole('button', { name: en.passkey.add, exact: true }).click();
    const alert = page.locator('[role=alert]');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(en.passkey.errors.registrationCancelled);
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'alert');
    expect(await authenticator.userHandles()).toEqual([]);
    await page.getByRole('button', { name: en.passkey.notNow, exact: true }).click();
    await expectProvenSession(stack, page, 'app', 'eu-north-1');

    // "Log in with a passkey" on this device: no passkey signs, and the message says so, not "Something went wrong".
    await page.goto(`${stack.web}${loginPathFor(stack, 'app')}`);
    await page.getByRole('button', { name: en.passkey.signIn, exact: true }).click();
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(en.passkey.errors.cancelled);
    expect(page.url()).toContain('/login?');
  });
});
