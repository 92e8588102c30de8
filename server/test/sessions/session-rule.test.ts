// The rule of what a new session must still prove and how long it lives (the SQL functions of the migration
// 2026-11-26T2300-session-factor-rule), seen through both ways a password session is written: the one statement
// that starts it on a probe's proof, and the insert after argon2. Each factor, each lifetime and what a complete or
// a pending sign-in gives back is checked on both, so a changed rule fails here twice.
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  codeFrom,
  goodPassword,
  passwordLogin,
  probeRightPassword,
  goodPasswordHash,
  insertUserWithPassword,
  latestOutboxMessage,
  movableClock,
} from '../support/sign-in';
import { userWithPasskey } from '../support/passkeys';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const minute = 60_000;
const year = 365 * 86_400_000;
let nextAddress = 0;
const freshIp = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

const login = (email: string, password: string, ip: string) => passwordLogin(ctx, email, password, ip);
const probe = (email: string, ip: string) => probeRightPassword(ctx, email, ip);

const storedSession = (id: string) =>
  ctx.services.db
    .selectFrom('sessions')
    .select(['factors', 'expires_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const throttleCount = async (key: string) =>
  (await ctx.services.db.selectFrom('throttles').select('count').where('key', '=', key).executeTakeFirst())?.count ??
  null;

const familiarSources = async (email: string) =>
  (
    await ctx.services.db
      .selectFrom('sign_in_sources')
      .select('source_hash')
      .where('email_hash', '=', emailHash(email))
      .execute()
  ).length;

/** When the session ends, within the time the request took, from `lifetime` after its start. */
function expectLifetime(expiresAt: Date, window: { before: Date; after: Date }, lifetime: number) {
  expect(expiresAt.getTime()).toBeGreaterThanOrEqual(window.before.getTime() + lifetime - 1);
  expect(expiresAt.getTime()).toBeLessThanOrEqual(window.after.getTime() + lifetime + 1);
}

describe.each([
  ['after argon2', false],
  ["on a probe's proof", true],
])('a new password session (%s)', (_path, proofFirst) => {
  /** Two wrong passwords from `ip`, then the right one (after a probe when proofFirst). */
  async function signIn(email: string, ip: string) {
    for (let i = 0; i < 2; i++) expect((await login(email, 'wrong-password', ip)).status).toBe(401);
    if (proofFirst) expect((await probe(email, ip)).body.available).toBe(true);
    const before = clock.now();
    const res = await login(email, goodPassword, ip);
    const after = clock.now();
    expect(res.status).toBe(201);
    return { res, window: { before, after }, stored: await storedSession(res.body.id) };
  }

  test('without a second factor: the password verified, a year to live, failures ended and the source familiar', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const ip = freshIp();
    const { res, window, stored } = await signIn(user.email, ip);
    expect(res.body.factors).toEqual({ password: 'verified' });
    expect(stored.factors).toEqual({ password: 'verified' });
    expectLifetime(stored.expires_at, window, year);
    expect(await throttleCount(`login:pair:${emailHash(user.email)}:${ip}`)).toBeNull();
    expect(await familiarSources(user.email)).toBe(1);
    // Complete: it refreshes.
    const refreshed = await request(ctx.app)
      .put(`/core/v1/sessions/${res.body.id}`)
      .set(v1)
      .set('authorization', `Bearer ${res.body.refreshToken}`);
    expect(refreshed.status).toBe(200);
  });

  test('with an email code: otpEmail unverified, 15 minutes to live, the failures kept and no familiar source', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true });
    const ip = freshIp();
    const { res, window, stored } = await signIn(user.email, ip);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    expect(stored.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    expectLifetime(stored.expires_at, window, 15 * minute);
    expect(await throttleCount(`login:pair:${emailHash(user.email)}:${ip}`)).toBe(2);
    expect(await familiarSources(user.email)).toBe(0);
  });

  test('with an SMS code: otpSms unverified, 15 minutes to live, the failures kept', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpSms: true, phone: '+46700000077' });
    const ip = freshIp();
    const { res, window, stored } = await signIn(user.email, ip);
    expect(res.body.factors).toEqual({ password: 'verified', otpSms: 'unverified' });
    expect(stored.factors).toEqual({ password: 'verified', otpSms: 'unverified' });
    expectLifetime(stored.expires_at, window, 15 * minute);
    expect(await throttleCount(`login:pair:${emailHash(user.email)}:${ip}`)).toBe(2);
    expect(await familiarSources(user.email)).toBe(0);
  });

  test('a passkey is an alternative only to a pending code: not listed alone, listed unverified beside a code', async () => {
    const alone = await userWithPasskey(ctx, 'ES256', { passwordHash: await goodPasswordHash() });
    const first = await signIn(alone.email, freshIp());
    expect(first.res.body.factors).toEqual({ password: 'verified' });
    expect(first.stored.factors).toEqual({ password: 'verified' });
    expectLifetime(first.stored.expires_at, first.window, year);
    const withCode = await userWithPasskey(ctx, 'ES256', {
      passwordHash: await goodPasswordHash(),
      otpSms: true,
      phone: '+46700000078',
    });
    const second = await signIn(withCode.email, freshIp());
    expect(second.res.body.factors).toEqual({ password: 'verified', otpSms: 'unverified', passkey: 'unverified' });
    expect(second.stored.factors).toEqual({ password: 'verified', otpSms: 'unverified', passkey: 'unverified' });
    expectLifetime(second.stored.expires_at, second.window, 15 * minute);
  });

  test('the right code settles the session: every factor verified and a year to live from then', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true });
    const { res } = await signIn(user.email, freshIp());
    const auth = { ...v1, authorization: `Bearer ${res.body.accessToken}` };
    expect(
      (await request(ctx.app).post(`/core/v1/sessions/${res.body.id}/challenges`).set(auth).send({ otpEmail: true }))
        .status,
    ).toBe(201);
    const code = codeFrom((await latestOutboxMessage(ctx.services, user.email))!.body);
    const before = clock.now();
    const verified = await request(ctx.app)
      .patch(`/core/v1/sessions/${res.body.id}`)
      .set(auth)
      .send({ otpEmail: { code } });
    const after = clock.now();
    expect(verified.status).toBe(200);
    expect(verified.body.factors).toEqual({ password: 'verified', otpEmail: 'verified' });
    const stored = await storedSession(res.body.id);
    expect(stored.factors).toEqual({ password: 'verified', otpEmail: 'verified' });
    expectLifetime(stored.expires_at, { before, after }, year);
  });
});
