// Invitations: users created by a directory (SCIM) without a password get a set-password link by email; the link
// works once, for 30 days, and stops working when a newer one is sent, when the account is deactivated, or when a
// password is set another way.
import request from 'supertest';
import { scheduleInvitation } from '../../src/modules/invitations';
import { upsertSsoDomain } from '../../src/modules/sso/sso.repository';
import type { TestContext } from '../support/context';
import { createTestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { movableClock } from '../support/sign-in';
import { entraUser, scim, scimKey } from '../support/scim-client';

const clock = movableClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { SIGN_IN_APP_URL: 'https://login.example.com' } });
});
afterAll(() => ctx.close());

let counter = 0;
async function directory() {
  const domain = `school-${Date.now().toString(36)}${(counter++).toString(36)}.test`;
  const tenantId = await insertTenant(ctx.services, `Demo School ${counter}`);
  const admin = await insertUser(ctx.services, { email: `admin@${domain}`, tenants: [tenantId] });
  await ctx.services.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', admin.id).execute();
  const key = await scimKey(ctx, { tenantId, adminToken: (await signIn(ctx.services, admin.id)).accessToken });
  return { domain, tenantId, client: scim(ctx, key) };
}

const emailsTo = (to: string) =>
  ctx.services.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', to)
    .where('channel', '=', 'email')
    .orderBy('id')
    .execute();

function linkOf(body: string) {
  const url = new URL(/https:\/\/login\.example\.com\/set-password\?\S+/.exec(body)![0]);
  return {
    userId: Number(url.searchParams.get('userId')),
    token: url.searchParams.get('token')!,
    lng: url.searchParams.get('lng'),
  };
}

/** Provisions a user and sends what the jobs have to send; answers the user id and their newest invitation link. */
async function provision(d: Awaited<ReturnType<typeof directory>>, email: string, extra: object = {}) {
  const created = await d.client.post('/Users', { ...entraUser(email), ...extra });
  expect(created.status).toBe(201);
  await ctx.services.jobs.runDueJobs();
  return Number(created.body.id);
}

const linkState = (link: { userId: number; token: string }) =>
  request(ctx.app).get(`/core/v1/users/${link.userId}/password-set`).set(v1).set('cosafe-password-token', link.token);
const setPassword = (link: { userId: number; token: string }, password = 'Chosen-Password-1!') =>
  request(ctx.app).post(`/core/v1/users/${link.userId}/password-set`).set(v1).send({ token: link.token, password });
const login = (email: string, password = 'Chosen-Password-1!') =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'password', email, password });

describe('an invitation to a user a directory creates (POST /core/v1/scim/v2/Users)', () => {
  test('arrives in English with a link to the set-password page that sets the password once and signs nothing in', async () => {
    const d = await directory();
    const email = `new.teacher@${d.domain}`;
    const userId = await provision(d, email);
    const [mail] = await emailsTo(email);
    expect(mail.subject).toBe(`Your account at Demo School ${counter}`);
    expect(mail.body).toContain(`You log in with ${email}.`);
    expect(mail.body).toContain('within 30 days');
    const link = linkOf(mail.body);
    expect(link).toMatchObject({ userId, lng: 'en' });
    // A directory's user is invited to the app: the sign-in app offers to log in there once the password is set.
    expect(/[?&]platform=(\w+)/.exec(mail.body)?.[1]).toBe('app');
    expect((await linkState(link)).body).toEqual({ state: 'valid' });

    const set = await setPassword(link);
    expect(set.status).toBe(204);
    expect(set.body).toEqual({});
    expect(await ctx.services.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).toEqual(
      [],
    );
    expect((await login(email)).status).toBe(201);
    expect((await setPassword(link, 'Another-Password-2!')).body.error.code).toBe('USER_PASSWORD_ALREADY_SET');
  });

  test('is written in the language the directory gives (preferredLanguage), and the link opens the page in it', async () => {
    const d = await directory();
    const email = `larare@${d.domain}`;
    await provision(d, email, { preferredLanguage: 'sv-SE' });
    const [mail] = await emailsTo(email);
    expect(mail.subject).toBe(`Ditt konto hos Demo School ${counter}`);
    expect(mail.body).toContain('Öppna den här länken inom 30 dagar');
    expect(linkOf(mail.body).lng).toBe('sv');
    const settings = await ctx.services.db
      .selectFrom('user_settings')
      .select('preferred_language')
      .where('user_id', '=', linkOf(mail.body).userId)
      .executeTakeFirst();
    expect(settings?.preferred_language).toBe('sv');
  });

  test('is not sent to a user created inactive, and is sent once the directory activates them', async () => {
    const d = await directory();
    const email = `later@${d.domain}`;
    const userId = await provision(d, email, { active: false });
    expect(await emailsTo(email)).toHaveLength(0);
    const patched = await d.client.patch(`/Users/${userId}`, [{ op: 'replace', path: 'active', value: true }]);
    expect(patched.status).toBe(200);
    await ctx.services.jobs.runDueJobs();
    expect(await emailsTo(email)).toHaveLength(1);
  });

  test('is not sent to a user whose email domain signs in with single sign-on', async () => {
    const d = await directory();
    await upsertSsoDomain(ctx.services.db, { domain: d.domain, tenantId: d.tenantId, kind: 'oidc' });
    const email = `sso.teacher@${d.domain}`;
    await provision(d, email);
    expect(await emailsTo(email)).toHaveLength(0);
  });

  test('lasts 30 days: then the link answers expired (410 on use)', async () => {
    const d = await directory();
    const email = `slow@${d.domain}`;
    await provision(d, email);
    const link = linkOf((await emailsTo(email))[0].body);
    clock.advance(30 * 86_400_000 + 1_000);
    try {
      expect((await linkState(link)).body).toEqual({ state: 'expired' });
      expect((await setPassword(link)).status).toBe(410);
    } finally {
      clock.advance(-(30 * 86_400_000 + 1_000));
    }
  });
});

describe('outstanding invitation links', () => {
  test('a re-provisioned user gets a new link and the old one stops working', async () => {
    const d = await directory();
    const email = `again@${d.domain}`;
    const userId = await provision(d, email);
    const first = linkOf((await emailsTo(email))[0].body);
    expect((await d.client.delete(`/Users/${userId}`)).status).toBe(204);
    await provision(d, email);
    const mails = await emailsTo(email);
    expect(mails).toHaveLength(2);
    const second = linkOf(mails[1].body);
    expect(second.token).not.toBe(first.token);
    expect((await linkState(first)).body).toEqual({ state: 'invalid' });
    expect((await setPassword(first)).body.error.code).toBe('USER_PASSWORD_SET_TOKEN_INVALID');
    expect((await linkState(second)).body).toEqual({ state: 'valid' });
  });

  test('deactivating the user revokes the link: it can no longer set a password', async () => {
    const d = await directory();
    const email = `leaver@${d.domain}`;
    const userId = await provision(d, email);
    const link = linkOf((await emailsTo(email))[0].body);
    expect((await d.client.patch(`/Users/${userId}`, [{ op: 'replace', path: 'active', value: false }])).status).toBe(
      200,
    );
    expect((await linkState(link)).body).toEqual({ state: 'invalid' });
    const used = await setPassword(link);
    expect(used.status).toBe(400);
    expect(used.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_INVALID');
    const row = await ctx.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
  });

  test('an invitation whose user was deactivated before it went out is not sent', async () => {
    const d = await directory();
    const email = `gone@${d.domain}`;
    const created = await d.client.post('/Users', entraUser(email));
    await d.client.patch(`/Users/${created.body.id}`, [{ op: 'replace', path: 'active', value: false }]);
    await ctx.services.jobs.runDueJobs();
    expect(await emailsTo(email)).toHaveLength(0);
  });

  test("setting the password with one link closes the user's other invitation links", async () => {
    const d = await directory();
    const email = `twice@${d.domain}`;
    const userId = await provision(d, email);
    const link = linkOf((await emailsTo(email))[0].body);
    // A second, older-style link of the same user (as an earlier release or a concurrent invitation would leave).
    await ctx.services.db
      .insertInto('password_tokens')
      .values({
        token_hash: 'other-outstanding-link',
        user_id: userId,
        kind: 'set',
        expires_at: new Date(clock.now().getTime() + 86_400_000),
      })
      .execute();
    expect((await setPassword(link)).status).toBe(204);
    const other = await ctx.services.db
      .selectFrom('password_tokens')
      .select('used_at')
      .where('token_hash', '=', 'other-outstanding-link')
      .executeTakeFirstOrThrow();
    expect(other.used_at).not.toBeNull();
  });
});

describe('inviting again', () => {
  test('replaces the outstanding link: only the newest one works', async () => {
    const d = await directory();
    const email = `reinvite@${d.domain}`;
    const userId = await provision(d, email);
    const first = linkOf((await emailsTo(email))[0].body);
    const scheduled = await ctx.services.db
      .transaction()
      .execute((trx) => scheduleInvitation(ctx.services, trx, { userId, tenantId: d.tenantId }));
    expect(scheduled).toEqual({ job: expect.stringMatching(/^invitation:/) });
    await ctx.services.jobs.runDueJobs();
    const second = linkOf((await emailsTo(email))[1].body);
    expect((await linkState(first)).body).toEqual({ state: 'invalid' });
    expect((await linkState(second)).body).toEqual({ state: 'valid' });
  });
});
