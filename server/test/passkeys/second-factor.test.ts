import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { codeFrom, goodPasswordHash, goodPassword, latestOutboxMessage, movableClock } from '../support/sign-in';
import { bearer, freshAddress, userWithPasskey } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

/** A user with the email code factor and a passkey, signed in with the password: the pending session. */
async function pendingWithPasskey(algorithm: 'ES256' | 'EdDSA' = 'ES256') {
  const user = await userWithPasskey(ctx, algorithm, { passwordHash: await goodPasswordHash(), otpEmail: true });
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  expect(res.status).toBe(201);
  return { user, session: res.body as { id: string; accessToken: string; factors: Record<string, string> } };
}

const challenge = (s: { id: string; accessToken: string }, body: object = { passkey: true }) =>
  request(ctx.app).post(`/core/v1/sessions/${s.id}/challenges`).set(bearer(s)).send(body);
// Each answer from an address of its own: the per-address lockout is not what these tests are about.
const verify = (s: { id: string; accessToken: string }, body: object) =>
  request(ctx.app).patch(`/core/v1/sessions/${s.id}`).set(bearer(s)).set('x-forwarded-for', freshAddress()).send(body);

describe('a passkey as the second factor of a password session', () => {
  test("the pending session's factors offer the passkey beside the code", async () => {
    const { session } = await pendingWithPasskey();
    expect(session.factors).toEqual({ password: 'verified', otpEmail: 'unverified', passkey: 'unverified' });
  });

  test.each(['ES256', 'EdDSA'] as const)(
    "a %s passkey completes it: options naming the user's passkeys, then factors { password, passkey } with fresh tokens",
    async (algorithm) => {
      const { user, session } = await pendingWithPasskey(algorithm);
      const options = await challenge(session);
      expect(options.status).toBe(201);
      expect(options.body).toEqual({
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        timeout: 300_000,
        rpId: 'localhost',
        userVerification: 'required',
        allowCredentials: [{ id: user.authenticator.id, type: 'public-key', transports: ['internal', 'hybrid'] }],
      });
      const res = await verify(session, { passkey: user.authenticator.authenticate(options.body) });
      expect(res.status).toBe(200);
      expect(res.body.factors).toEqual({ password: 'verified', passkey: 'verified' });
      expect(res.body.accessToken).not.toBe(session.accessToken);
      expect((await request(ctx.app).get('/core/v1/passkeys').set(bearer(res.body))).status).toBe(200);
      expect((await request(ctx.app).get('/core/v1/passkeys').set(bearer(session))).status).toBe(401);
    },
  );

  test("another user's passkey does not complete it (401 INVALID_CREDENTIALS, counted like a wrong code)", async () => {
    const { session } = await pendingWithPasskey();
    const stranger = await userWithPasskey(ctx);
    const options = await challenge(session);
    const res = await verify(session, { passkey: stranger.authenticator.authenticate(options.body) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    // Without a user handle (allowed for a second factor) the passkey's own user decides.
    const again = await challenge(session);
    const anonymous = await verify(session, {
      passkey: stranger.authenticator.authenticate(again.body, { userHandle: null }),
    });
    expect(anonymous.status).toBe(401);
    const attempts = await ctx.services.db
      .selectFrom('challenges')
      .select('attempts')
      .where('session_id', '=', session.id)
      .where('kind', '=', 'passkey')
      .execute();
    expect(attempts.map((a) => a.attempts)).toEqual([1, 1]);
  });

  test('the challenge is single use and lives 5 minutes: a replay or a late answer answers 400 PASSKEY_CHALLENGE_EXPIRED', async () => {
    const { user, session } = await pendingWithPasskey();
    const options = await challenge(session);
    const bad = await verify(session, { passkey: user.authenticator.authenticate(options.body, { uv: false }) });
    expect(bad.status).toBe(401);
    const replay = await verify(session, { passkey: user.authenticator.authenticate(options.body) });
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
    const late = await challenge(session);
    clock.advance(5 * 60_000 + 1);
    const expired = await verify(session, { passkey: user.authenticator.authenticate(late.body) });
    expect(expired.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test("a challenge of another session is not this one's (401)", async () => {
    const { user, session } = await pendingWithPasskey();
    const second = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: user.email, password: goodPassword });
    const options = await challenge(second.body);
    await challenge(session);
    const res = await verify(session, { passkey: user.authenticator.authenticate(options.body) });
    expect(res.status).toBe(401);
  });

  test('ten failed answers end the session, as ten wrong codes do', async () => {
    const { user, session } = await pendingWithPasskey();
    for (let i = 0; i < 10; i++) {
      const options = await challenge(session);
      expect(options.status).toBe(201);
      await verify(session, { passkey: new SoftAuthenticator().authenticate(options.body) });
    }
    const after = await challenge(session);
    expect(after.status).toBe(401);
    void user;
  });

  test('a session without the passkey factor, or whose user has no passkey left, answers 400 PASSKEY_NOT_REGISTERED', async () => {
    const user = await userWithPasskey(ctx, 'ES256', { passwordHash: await goodPasswordHash(), otpEmail: false });
    const complete = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: user.email, password: goodPassword });
    expect(complete.body.factors).toEqual({ password: 'verified' });
    const { user: other, session } = await pendingWithPasskey();
    await ctx.services.db.deleteFrom('passkeys').where('user_id', '=', other.userId).execute();
    const res = await challenge(session);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('PASSKEY_NOT_REGISTERED');
    const again = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: other.email, password: goodPassword });
    expect(again.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    const answer = await verify(again.body, { passkey: other.authenticator.authenticate({ challenge: 'x' }) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('PASSKEY_NOT_REGISTERED');
  });

  test('the email code still completes a session that offered the passkey', async () => {
    const { user, session } = await pendingWithPasskey();
    expect((await challenge(session, { otpEmail: true })).status).toBe(201);
    const mail = await latestOutboxMessage(ctx.services, user.email);
    const res = await verify(session, { otpEmail: { code: codeFrom(mail!.body) } });
    expect(res.status).toBe(200);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'verified' });
  });
});

describe('the passkey challenge does not spend the one-time-code budget', () => {
  test('"use a passkey instead" asked for eleven times in an hour still gets a challenge each time, and the code budget is untouched', async () => {
    const { user, session } = await pendingWithPasskey();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await challenge(session)).status);
    // The 5th and the 11th above all: each one a challenge, none a wait.
    expect(statuses).toEqual(Array(11).fill(201));
    const codeBudget = await ctx.services.db
      .selectFrom('throttles')
      .select('count')
      .where('key', '=', `otp:send:${user.userId}`)
      .executeTakeFirst();
    expect(codeBudget).toBeUndefined();
    // The code is still there when she asks for it.
    expect((await challenge(session, { otpEmail: true })).status).toBe(201);
  });
});
