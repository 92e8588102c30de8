// Attacks on the second factor: a pending session kept alive for guessing, one-time-code guesses that escape
// the lockouts, and an access token minted before the code that gains full access once it is verified.
import type { Server } from 'node:http';
import { emailHash } from '../../src/security/hashing';
import { signInPolicies as policies } from '../../src/modules/sessions/lockout-keys';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { codeFrom, goodPassword, insertUserWithPassword, latestOutboxMessage, movableClock } from '../support/sign-in';
import { listen, type Answer } from '../support/from-address';

let ctx: TestContext;
let server: Server;
let send: (
  from: string,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  ({ server, send } = await listen(ctx.app));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

let next = 10;
const address = () => `127.1.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function pendingSession(from: string) {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUserWithPassword(ctx.services, { tenants: [tenant], otpEmail: true });
  const res = await send(from, 'POST', '/core/v1/sessions', {
    grantType: 'password',
    email: user.email,
    password: goodPassword,
  });
  expect(res.status).toBe(201);
  return { ...(res.body as { id: string; accessToken: string; refreshToken: string }), email: user.email, tenant };
}
const askCode = (from: string, s: { id: string; accessToken: string }) =>
  send(from, 'POST', `/core/v1/sessions/${s.id}/challenges`, { otpEmail: true }, bearer(s.accessToken));
const verify = (from: string, s: { id: string; accessToken: string }, code: string) =>
  send(from, 'PATCH', `/core/v1/sessions/${s.id}`, { otpEmail: { code } }, bearer(s.accessToken));
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('attack: keeping a session that waits for its second factor alive for guessing', () => {
  test('it ends within 15 minutes and cannot be refreshed', async () => {
    const from = address();
    const s = await pendingSession(from);
    const refreshed = await send(from, 'PUT', `/core/v1/sessions/${s.id}`, undefined, bearer(s.refreshToken));
    expect(refreshed.status).toBe(401);
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - clock.now().getTime()).toBeLessThanOrEqual(15 * 60_000);
  });
});

describe('attack: guessing one-time codes outside the lockouts', () => {
  test('wrong codes count towards the account lockout: after them the password from that address answers 429', async () => {
    const from = address();
    const s = await pendingSession(from);
    for (let round = 0; round < 2; round++) {
      expect((await askCode(from, s)).status).toBe(201);
      const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
      for (let i = 0; i < 3; i++) await verify(from, s, wrongCode(code));
      if (round === 0) clock.advance(31_000); // the resend cooldown
    }
    expect(
      (await send(from, 'POST', '/core/v1/sessions', { grantType: 'password', email: s.email, password: goodPassword }))
        .status,
    ).toBe(429);
    const counted = await ctx.services.db
      .selectFrom('throttles')
      .select('count')
      .where('key', 'like', `%${emailHash(s.email)}%`)
      .execute();
    expect(Math.max(...counted.map((r) => r.count))).toBeGreaterThanOrEqual(6);
  });

  test('20 concurrent wrong codes get no more checks than the code allows (5), and the code is then used up', async () => {
    const from = address();
    const s = await pendingSession(from);
    await askCode(from, s);
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(from, s, wrongCode(code))));
    expect(answers.filter((a) => a.body?.error?.code === 'INVALID_CREDENTIALS').length).toBeLessThanOrEqual(5);
    // Used up: even the right code no longer works, and the answer says so (ask for a new code).
    const right = await verify(from, s, code);
    expect(right.status).not.toBe(200);
  });

  test('a code used up by 5 wrong tries answers MFA_TOKEN_EXPIRED, so the app can offer a new code', async () => {
    const from = address();
    const s = await pendingSession(from);
    await askCode(from, s);
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    for (let i = 0; i < 5; i++)
      expect((await verify(from, s, wrongCode(code))).body.error.code).toBe('INVALID_CREDENTIALS');
    const after = await verify(from, s, code);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('MFA_TOKEN_EXPIRED');
  });
});

describe('attack: using an access token minted before the second factor', () => {
  test('after the code is verified, the access token issued before is refused; the new one works', async () => {
    const from = address();
    const s = await pendingSession(from);
    await askCode(from, s);
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    const verified = await verify(from, s, code);
    expect(verified.status).toBe(200);
    const tenantHeader = { 'cosafe-tenant-id': String(s.tenant) };
    const old = await send(from, 'GET', '/core/v1/tenants', undefined, { ...bearer(s.accessToken), ...tenantHeader });
    expect(old.status).toBe(401);
    const fresh = await send(from, 'GET', '/core/v1/tenants', undefined, {
      ...bearer(verified.body.accessToken),
      ...tenantHeader,
    });
    expect(fresh.status).toBe(200);
    // The old refresh token is history now: presenting it ends the session.
    expect((await send(from, 'PUT', `/core/v1/sessions/${s.id}`, undefined, bearer(s.refreshToken))).status).toBe(401);
  });
});

describe('attack: guessing the second factor for ever by signing in again and again with the password', () => {
  async function userWithCode() {
    const tenant = await insertTenant(ctx.services);
    return insertUserWithPassword(ctx.services, { tenants: [tenant], otpEmail: true });
  }
  const passwordLogin = (from: string, email: string) =>
    send(from, 'POST', '/core/v1/sessions', { grantType: 'password', email, password: goodPassword });
  const codeFailures = async (email: string) =>
    Math.max(
      0,
      ...(
        await ctx.services.db
          .selectFrom('throttles')
          .select('count')
          .where('key', 'like', `%${emailHash(email)}%`)
          .execute()
      ).map((r) => r.count),
    );

  test('a password success while the code is pending makes no address familiar', async () => {
    const s = await pendingSession(address());
    const familiar = await ctx.services.db
      .selectFrom('sign_in_sources')
      .select('source_hash')
      .where('email_hash', '=', emailHash(s.email))
      .execute();
    expect(familiar).toEqual([]);
  });

  test('wrong codes stay on record when the password signs in again', async () => {
    const from = address();
    const s = await pendingSession(from);
    await askCode(from, s);
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    for (let i = 0; i < 3; i++) await verify(from, s, wrongCode(code));
    expect((await passwordLogin(from, s.email)).status).toBe(201);
    expect(await codeFailures(s.email)).toBeGreaterThanOrEqual(3);
  });

  test('10 wrong codes in a row end the pending session', async () => {
    const s = await pendingSession(address());
    for (let round = 0; round < 2; round++) {
      const from = address();
      expect((await askCode(from, s)).status).toBe(201);
      const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
      for (let i = 0; i < 5; i++)
        expect((await verify(address(), s, wrongCode(code))).body.error.code).toBe('INVALID_CREDENTIALS');
      clock.advance(31_000);
    }
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect((await askCode(address(), s)).status).toBe(401);
  });

  test('attack: with the password, one more wrong code from yet another address past the ceiling is answered 429, not checked', async () => {
    const victim = await userWithCode();
    const signInWithCode = async (from: string) => {
      const res = await passwordLogin(from, victim.email);
      expect(res.status).toBe(201);
      const s = res.body as { id: string; accessToken: string };
      expect((await askCode(from, s)).status).toBe(201);
      return { s, code: codeFrom((await latestOutboxMessage(ctx.services, victim.email))!.body) };
    };
    const ceiling = policies.secondFactorPerIdentity.freeFailures + 1;
    for (let round = 0; round < ceiling / 5; round++) {
      const attacker = address();
      const { s, code } = await signInWithCode(attacker);
      for (let i = 0; i < 5; i++) await verify(attacker, s, wrongCode(code));
    }
    const attacker = address();
    const late = await signInWithCode(attacker);
    const guess = await verify(attacker, late.s, wrongCode(late.code));
    expect(guess.status).toBe(429);
  });

  test('past the ceiling even the right code is refused from new addresses; a completed sign-in from home ends the lock', async () => {
    const victim = await userWithCode();
    const signInWithCode = async (from: string) => {
      const res = await passwordLogin(from, victim.email);
      expect(res.status).toBe(201);
      const s = res.body as { id: string; accessToken: string };
      expect((await askCode(from, s)).status).toBe(201);
      return { s, code: codeFrom((await latestOutboxMessage(ctx.services, victim.email))!.body) };
    };
    const home = address();
    const first = await signInWithCode(home);
    expect((await verify(home, first.s, first.code)).status).toBe(200);
    const ceiling = policies.secondFactorPerIdentity.freeFailures + 1;
    for (let round = 0; round < ceiling / 5; round++) {
      const attacker = address();
      const { s, code } = await signInWithCode(attacker);
      for (let i = 0; i < 5; i++)
        expect((await verify(attacker, s, wrongCode(code))).body.error.code).toBe('INVALID_CREDENTIALS');
    }
    const attacker = address();
    const late = await signInWithCode(attacker);
    const refused = await verify(attacker, late.s, late.code);
    expect(refused.status).toBe(429);
    const atHome = await signInWithCode(home);
    expect((await verify(home, atHome.s, atHome.code)).status).toBe(200);
    const lock = await ctx.services.db
      .selectFrom('throttles')
      .select('key')
      .where('key', '=', `login:code:${emailHash(victim.email)}`)
      .execute();
    expect(lock).toEqual([]);
  });
});
