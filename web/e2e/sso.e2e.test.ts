/**
 * 'Log in with SSO' end to end, in Debian's headless Chromium: two live regions (Europe's demo seed binds
 * sso.demo.test to the development identity provider, scripts/dev-idp.mjs, a real oidc-provider), the production
 * build of the app and the demo calling platform, all on free loopback ports. The browser goes from the demo
 * platform to the SSO step, to the identity provider's login form, back to /login/sso and on to the platform,
 * which proves the refresh token. The app's SSO screens are checked with axe-core and saved (all six languages;
 * the identity provider's round trips in English and Swedish) in test-output/screenshots/sso/.
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
import { SCREENSHOTS, axeViolations, screenshot } from './support/browser';
import { browserSuite } from './support/browser-suite';
import {
  type Platform,
  expectFocus,
  expectProvenSession as expectProven,
  isPasskeyOptionsRequest,
  text,
} from './support/sign-in-pages';
import type { Stack } from './support/stack';

const SSO_USER = 'sso-user@sso.demo.test';
/** A folder of its own: the other browser suite empties the top level of SCREENSHOTS when it starts. */
const SSO_SCREENSHOTS = join(SCREENSHOTS, 'sso');

let stack: Stack;
// The identity provider's development page imports a web font; nothing leaves the machine.
const { visit } = browserSuite(
  {
    stack: { devIdp: true },
    loopbackOnly: true,
    prepare: () => {
      rmSync(SSO_SCREENSHOTS, { recursive: true, force: true });
      mkdirSync(SSO_SCREENSHOTS, { recursive: true });
    },
  },
  (started) => (stack = started),
);

const demoPage = (platform: 'admin' | 'app' | 'academy') => `${stack.demo}/${platform}/login`;
const loginPath = (platform: 'admin' | 'app' | 'academy' = 'app', extra = '') =>
  `/login?redirectUrl=${encodeURIComponent(demoPage(platform))}${extra}`;
/** The requests to the region at `origin`, leaving out the passwordless options the login page asks for on arrival. */
const apiCalls = (requests: string[], origin: string) =>
  requests.filter((request) => request.split(' ')[1].startsWith(`${origin}/`) && !isPasskeyOptionsRequest(request));

/** From the login form: 'Log in with SSO', the email, Continue. */
async function startSso(page: Page, email: string, T = en) {
  await page.getByRole('button', { name: T.login.sso }).click();
  await page.getByRole('heading', { level: 1, name: T.sso.title }).waitFor();
  await page.fill('#sso-email', email);
  await page.getByRole('button', { name: T.sso.submit }).click();
}

/** At the development identity provider: its login form takes any password. */
async function signInAtIdp(page: Page, login: string) {
  await page.waitForURL((url) => url.href.startsWith(`${stack.idp}/interaction/`), { timeout: 20_000 });
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any password at all');
  await page.click('button[type=submit]');
}

/** The demo platform received sessionId, region and a refresh token that refreshes the session. */
const expectProvenSession = (page: Page, platform: Platform, region: string) =>
  expectProven(stack, page, platform, region);

describe('Log in with SSO in a real browser', () => {
  test('from the demo platform: SSO step, the identity provider, /login/sso, and back to the platform with a proven session', async () => {
    const { page, requests } = await visit(demoPage('app'));
    await page.click('#login-link');
    await page.waitForURL((url) => url.href.startsWith(`${stack.web}/login?`));
    await startSso(page, SSO_USER);
    await signInAtIdp(page, SSO_USER);
    await expectProvenSession(page, 'app', 'eu-north-1');

    const europe = apiCalls(requests, stack.europe.url);
    expect(europe).toEqual(
      expect.arrayContaining([
        `GET ${stack.europe.url}/core/v1/probes/idpDomain/sso.demo.test`,
        `POST ${stack.europe.url}/core/v1/sessions`,
        expect.stringMatching(new RegExp(`^POST ${stack.europe.url}/core/v1/sessions/[0-9a-f-]{36}/challenges$`)),
        expect.stringMatching(new RegExp(`^PATCH ${stack.europe.url}/core/v1/sessions/[0-9a-f-]{36}$`)),
      ]),
    );
    // Brazil was asked about the domain only; the browser went through the identity provider and /login/sso.
    expect(apiCalls(requests, stack.brazil.url)).toEqual([
      `GET ${stack.brazil.url}/core/v1/probes/idpDomain/sso.demo.test`,
    ]);
    expect(
      requests.some(
        (request) => request.startsWith(`GET ${stack.idp}/auth?`) && request.includes('code_challenge_method=S256'),
      ),
    ).toBe(true);
    expect(requests.some((request) => request.startsWith(`GET ${stack.web}/login/sso?code=`))).toBe(true);
  });

  test('the academy does not ask Brazil about the domain', async () => {
    const { page, requests } = await visit(loginPath('academy', '&clientType=academy'));
    await startSso(page, SSO_USER);
    await signInAtIdp(page, 'sso-user');
    await expectProvenSession(page, 'academy', 'eu-north-1');
    expect(apiCalls(requests, stack.brazil.url)).toEqual([]);
  });

  test('a domain without SSO says so on the email field, and no session is created', async () => {
    const { page, requests } = await visit(loginPath());
    await startSso(page, 'anna@demo.test');
    expect(await text(page, '#sso-email-error')).toBe(en.sso.errors.noSso);
    expect(await page.getAttribute('#sso-email', 'aria-invalid')).toBe('true');
    expect(requests.filter((request) => request.includes('/core/v1/sessions'))).toEqual([]);
  });

  test('the SSO step checks the email like the login form, sending nothing', async () => {
    const { page, requests } = await visit(loginPath());
    await startSso(page, '');
    expect(await text(page, '#sso-email-error')).toBe(en.validation.emailRequired);
    await expectFocus(page, 'input#sso-email');
    await page.fill('#sso-email', 'sso-user@');
    await page.getByRole('button', { name: en.sso.submit }).click();
    expect(await text(page, '#sso-email-error')).toBe(en.validation.emailInvalid);
    expect(apiCalls(requests, stack.europe.url)).toEqual([]);
  });

  test('signing in at the identity provider as someone outside the organisation ends on /login/sso with its message', async () => {
    const { page } = await visit(loginPath());
    await startSso(page, SSO_USER);
    // A member of no tenant here, at the organisation's own domain (an address at another domain is refused earlier: its
    // identity provider does not speak for it).
    await signInAtIdp(page, 'outsider');
    await page.waitForURL(`${stack.web}/login/sso`);
    await page.getByRole('heading', { name: en.sso.failedTitle }).waitFor();
    expect(await text(page, '[role=alert]')).toBe(en.sso.errors.unauthorizedOrganization);
    // Log in again returns to the login form of the same sign-in.
    await page.getByRole('link', { name: en.sso.startAgain }).click();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
  });

  test('signing in at the identity provider as an address at another domain is not verified: that provider does not speak for it', async () => {
    const { page } = await visit(loginPath());
    await startSso(page, SSO_USER);
    await signInAtIdp(page, 'anna@demo.test');
    await page.waitForURL(`${stack.web}/login/sso`);
    await page.getByRole('heading', { name: en.sso.failedTitle }).waitFor();
    expect(await text(page, '[role=alert]')).toBe(en.sso.errors.idToken);
  });

  test('cancelling at the identity provider ends on /login/sso with its message', async () => {
    const { page, requests } = await visit(loginPath());
    await startSso(page, SSO_USER);
    await page.waitForURL((url) => url.href.startsWith(`${stack.idp}/interaction/`));
    await page.getByRole('link', { name: /Cancel/ }).click();
    await page.getByRole('heading', { name: en.sso.failedTitle }).waitFor();
    expect(await text(page, '[role=alert]')).toBe(en.sso.errors.refused);
    expect(requests.some((request) => request.startsWith('PATCH '))).toBe(false);
  });

  test('/login/sso opened in another tab (no sign-in started there) says so', async () => {
    const { page } = await visit('/login/sso?code=abc&state=def');
    await page.getByRole('heading', { name: en.sso.failedTitle }).waitFor();
    expect(await text(page, '[role=alert]')).toBe(en.sso.errors.notStarted);
    // The answer's parameters leave the address bar.
    await page.waitForURL(`${stack.web}/login/sso`);
  });
});

/** The SSO screens in English and Swedish: axe-core (0 violations) and a screenshot each. */
describe.each([
  ['en', 'en-GB', en],
  ['sv', 'sv-SE', sv],
])('the SSO screens in %s', (language, locale, T) => {
  let violations: Record<string, unknown[]> = {};
  let shot = 0;

  async function capture(page: Page, name: string, { axe = true } = {}) {
    await page.evaluate(() => document.fonts.ready);
    if (axe) {
      const found = await axeViolations(page);
      if (found.length > 0) violations[name] = found;
    }
    shot += 1;
    await screenshot(page, join('sso', `${language}-${String(shot).padStart(2, '0')}-${name}`));
  }

  beforeEach(() => {
    violations = {};
  });

  afterEach(() => {
    expect(violations).toEqual({});
  });

  test('SSO step, its messages, the identity provider, and the platform after SSO', async () => {
    const { page } = await visit(loginPath(), locale);
    await page.getByRole('heading', { name: T.login.title }).waitFor();
    await page.getByRole('button', { name: T.login.sso }).click();
    await page.getByRole('heading', { level: 1, name: T.sso.title }).waitFor();
    expect(await page.title()).toBe(T.sso.title);
    await capture(page, 'sso-step');
    await page.getByRole('button', { name: T.sso.submit }).click();
    expect(await text(page, '#sso-email-error')).toBe(T.validation.emailRequired);
    await capture(page, 'sso-step-required');
    await page.fill('#sso-email', 'anna@demo.test');
    await page.getByRole('button', { name: T.sso.submit }).click();
    expect(await text(page, '#sso-email-error')).toBe(T.sso.errors.noSso);
    await capture(page, 'sso-step-no-sso');
    await page.fill('#sso-email', SSO_USER);
    await page.getByRole('button', { name: T.sso.submit }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.idp}/interaction/`));
    // The development identity provider's own page (not this app's): captured, not audited.
    await capture(page, 'sso-identity-provider', { axe: false });
    await signInAtIdp(page, SSO_USER);
    await expectProvenSession(page, 'app', 'eu-north-1');
    await capture(page, 'sso-demo-platform');
  });

  test('/login/sso when the sign-in fails', async () => {
    const { page } = await visit(loginPath(), locale);
    await startSso(page, SSO_USER, T);
    await signInAtIdp(page, 'outsider');
    await page.getByRole('heading', { name: T.sso.failedTitle }).waitFor();
    expect(await text(page, '[role=alert]')).toBe(T.sso.errors.unauthorizedOrganization);
    await capture(page, 'sso-return-failed');
  });

  test('/login/sso while the answer is checked', async () => {
    const { page } = await visit(loginPath(), locale);
    // Hold the region's answer back so the page can be seen while it waits.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`${stack.europe.url}/core/v1/sessions/*`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await startSso(page, SSO_USER, T);
    await signInAtIdp(page, SSO_USER);
    await page.getByRole('heading', { name: T.sso.returnTitle }).waitFor();
    expect(await text(page, '[role=status]')).toBe(T.sso.returnStatus);
    await capture(page, 'sso-return-checking');
    release();
    await expectProvenSession(page, 'app', 'eu-north-1');
  });
});

/**
 * The app's SSO screens in the other four languages, without signing in at the identity provider again (each
 * SSO sign-in counts against the account's limits): the step and its messages, and /login/sso failing.
 */
describe.each([
  ['nl', 'nl-NL', nl],
  ['fi', 'fi-FI', fi],
  ['es', 'es-ES', es],
  ['pt', 'pt-BR', pt],
])('the SSO screens in %s', (language, locale, T) => {
  test('SSO step, its messages, and /login/sso when no sign-in was started in this tab', async () => {
    const violations: Record<string, unknown[]> = {};
    const capture = async (page: Page, name: string) => {
      const found = await axeViolations(page);
      if (found.length > 0) violations[name] = found;
      await screenshot(page, join('sso', `${language}-${name}`));
    };
    const { page } = await visit(loginPath(), locale);
    await page.getByRole('button', { name: T.login.sso }).click();
    await page.getByRole('heading', { level: 1, name: T.sso.title }).waitFor();
    await capture(page, 'sso-step');
    await page.getByRole('button', { name: T.sso.submit }).click();
    expect(await text(page, '#sso-email-error')).toBe(T.validation.emailRequired);
    await capture(page, 'sso-step-required');
    await page.fill('#sso-email', 'anna@demo.test');
    await page.getByRole('button', { name: T.sso.submit }).click();
    expect(await text(page, '#sso-email-error')).toBe(T.sso.errors.noSso);
    await capture(page, 'sso-step-no-sso');
    const other = await visit('/login/sso?code=abc&state=xyz', locale);
    await other.page.getByRole('heading', { name: T.sso.failedTitle }).waitFor();
    expect(await text(other.page, '[role=alert]')).toBe(T.sso.errors.notStarted);
    await capture(other.page, 'sso-return-failed');
    expect(violations).toEqual({});
  }, 90_000);
});

test('the screenshots of the SSO screens are saved', () => {
  const files = readdirSync(SSO_SCREENSHOTS).filter((file) => file.endsWith('.png'));
  for (const language of ['en', 'sv']) {
    for (const name of [
      'sso-step',
      'sso-step-required',
      'sso-step-no-sso',
      'sso-identity-provider',
      'sso-demo-platform',
      'sso-return-failed',
      'sso-return-checking',
    ]) {
      expect(files.some((file) => file.startsWith(`${language}-`) && file.endsWith(`-${name}.png`))).toBe(true);
    }
  }
});
