/**
 * Invitations end to end, in Debian's headless Chromium against two live regions (fresh databases with the
 * development seed) and the production build of the sign-in app: the demo data's invited user opens her link from
 * the development outbox in English; a user the tenant's directory creates through SCIM with Swedish as their
 * language gets a Swedish invitation whose link opens the page in Swedish. Both choose a password on the
 * set-password page and then log in with it.
 */
import type { Page } from 'playwright-core';
import en from '../src/i18n/locales/en.json';
import sv from '../src/i18n/locales/sv.json';
import { awaitMessage, axeViolations, linkIn } from './support/browser';
import { appReady, browserSuite } from './support/browser-suite';
import { expectProvenSession, fillLogin } from './support/sign-in-pages';
import type { Stack } from './support/stack';

const CHOSEN = 'Chosen-Password-7!';
const v1 = { 'cosafe-core-api-version': '1', 'content-type': 'application/json' };

let stack: Stack;
const { visit } = browserSuite({}, (started) => (stack = started));

async function api(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(`${stack.europe.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...v1, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A SCIM key of anna's tenant (Demo Municipality), made the way its administrator would, through the API. */
async function scimKeyOfAnnasTenant(): Promise<string> {
  const session = await api('/core/v1/sessions', {
    method: 'POST',
    body: { grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' },
  });
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const tenants = await api('/core/v1/tenants', { headers: auth });
  const tenantId = tenants.data.find((t: { name: string; id: number }) => t.name === 'Demo Municipality').id;
  const key = await api('/core/v1/api-keys', {
    method: 'POST',
    headers: { ...auth, 'cosafe-tenant-id': String(tenantId) },
    body: { name: 'Directory' },
  });
  return key.key;
}

/** On the set-password page: the policy is enforced, then the password is saved. */
async function choosePassword(page: Page, T: typeof en) {
  await page.getByRole('heading', { name: T.newPassword.titleSet }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await page.fill('#new-password', 'short');
  await page.fill('#confirm-password', 'short');
  await page.click('form button[type=submit]');
  expect((await page.locator('#new-password-error').innerText()).split('\n')).toContain(T.validation.passwordTooShort);
  await page.fill('#new-password', CHOSEN);
  await page.fill('#confirm-password', CHOSEN);
  await page.click('form button[type=submit]');
  await page.getByRole('heading', { name: T.newPassword.doneTitleSet }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
}

/**
 * The link names the region that issued it, and its token went to that region only, in a header or body: no API
 * request of the page carried it in a URL, and none went to Brazil. (The emailed link itself, the page's own
 * address, carries it: the page takes it out of the address bar at once.)
 */
function expectTokenOnlyToEurope(link: string, requests: string[]) {
  const url = new URL(link);
  expect(url.searchParams.get('region')).toBe('eu-north-1');
  const token = url.searchParams.get('token')!;
  const toRegions = requests.filter((r) => r.includes('/core/v1/'));
  expect(toRegions.some((r) => r.includes(`${stack.europe.url}/core/v1/users/`))).toBe(true);
  expect(toRegions.filter((r) => r.includes(stack.brazil.url))).toEqual([]);
  expect(toRegions.filter((r) => r.includes(token))).toEqual([]);
}

/** Logs in with the chosen password from the demo platform and lands back there with a session. */
async function logIn(page: Page, email: string) {
  const demo = `${stack.demo}/app/login`;
  await page.goto(`${stack.web}/login?redirectUrl=${encodeURIComponent(demo)}`);
  await page.locator('#email').waitFor();
  await appReady(page);
  await page.fill('#email', email);
  await page.fill('#password', CHOSEN);
  await page.click('form button[type=submit]');
  await page.waitForURL((url) => url.href.startsWith(`${demo}?`), { timeout: 20_000 });
  await page.locator('#proof[data-state=ok]').waitFor({ timeout: 15_000 });
}

describe('invitations in a real browser', () => {
  test("the demo data's invited user (English) sets her password from the link in the outbox, once, and logs in with it", async () => {
    const message = await awaitMessage(stack.europe.url, 'nora@demo.test', 0, 30_000);
    expect(message.subject).toBe('Your account at Demo Municipality');
    const link = linkIn(message);
    expect(link.startsWith(`${stack.web}/set-password?userId=`)).toBe(true);
    // The link names the platform she is invited to (the demo data's invitation: the app).
    expect(new URL(link).searchParams.get('platform')).toBe('app');
    const { page, requests } = await visit(link);
    await choosePassword(page, en);
    expectTokenOnlyToEurope(link, requests);
    // The way onward: a sign-in to that platform, from the success screen (this tab never went through /login).
    const onward = page.getByRole('link', { name: en.newPassword.toPlatform.replace('{{platform}}', en.platform.app) });
    expect(await onward.getAttribute('href')).toBe(
      `/login?redirectUrl=${encodeURIComponent(`${stack.demo}/app/login`)}`,
    );
    await onward.click();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.locator('#login-platform').textContent()).toBe(en.platform.app);
    await fillLogin(page, 'nora@demo.test', CHOSEN);
    await expectProvenSession(stack, page, 'app', 'eu-north-1');
    // The link is used now.
    const again = await visit(link);
    await again.page.getByRole('heading', { name: en.newPassword.usedTitleSet }).waitFor();
  });

  test('a user created by the directory with Swedish as language gets a Swedish invitation, a Swedish page, and logs in', async () => {
    const key = await scimKeyOfAnnasTenant();
    const email = 'sven.svensson@kommun.example';
    const since = Date.now();
    const created = await fetch(`${stack.europe.url}/core/v1/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: email,
        active: true,
        displayName: 'Sven Svensson',
        preferredLanguage: 'sv-SE',
      }),
    });
    expect(created.status).toBe(201);
    const message = await awaitMessage(stack.europe.url, email, since);
    expect(message.subject).toBe('Ditt konto hos Demo Municipality');
    const link = linkIn(message);
    expect(new URL(link).searchParams.get('lng')).toBe('sv');
    // A browser set to English: the link still opens the page in the invitation's language.
    const { page, requests } = await visit(link, 'en-GB');
    await choosePassword(page, sv);
    expectTokenOnlyToEurope(link, requests);
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    await logIn(page, email);
  });
});
