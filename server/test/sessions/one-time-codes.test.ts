import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { codeFrom, goodPassword, insertUserWithPassword, latestOutboxMessage, movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
});
afterAll(() => ctx.close());

async function pendingSession(options: { otpSms?: boolean; phone?: string | null } = {}) {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUserWithPassword(ctx.services, {
    tenants: [tenant],
    otpEmail: true,
    otpSms: options.otpSms ?? false,
    phone: options.phone ?? null,
  });
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  return { ...(res.body as { id: string; accessToken: string; refreshToken: string }), email: user.email, tenant };
}
const challenge = (s: { id: string; accessToken: string }, body: object) =>
  request(ctx.app)
    .post(`/core/v1/sessions/${s.id}/challenges`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`)
    .send(body);
const verify = (s: { id: string; accessToken: string }, body: object) =>
  request(ctx.app)
    .patch(`/core/v1/sessions/${s.id}`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`)
    .send(body);

describe('POST /core/v1/sessions/{id}/challenges', () => {
  test('{ otpEmail: true } emails a 6-digit code and answers where it went, until when, and when to resend', async () => {
    const s = await pendingSession();
    const res = await challenge(s, { otpEmail: true });
    expect(res.status).toBe(201);
    expect(res.body.sentTo).toMatch(/^u\*\*\*@example\.test$/);
    const now = clock.now().getTime();
    expect(new Date(res.body.validUntil).getTime() - now).toBeGreaterThan(9 * 60_000);
    expect(new Date(res.body.resendUnavailableUntil).getTime() - now).toBeGreaterThan(25_000);
    const mail = await latestOutboxMessage(ctx.services, s.email);
    expect(codeFrom(mail!.body)).toMatch(/^\d{6}$/);
    const stored = await ctx.services.db
      .selectFrom('challenges')
      .select('secret_hash')
      .where('session_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).not.toContain(codeFrom(mail!.body));
  });

  test('asking again before resendUnavailableUntil answers 429 with unavailableUntil; afterwards it sends a new code', async () => {
    const s = await pendingSession();
    const first = await challenge(s, { otpEmail: true });
    const again = await challenge(s, { otpEmail: true });
    expect(again.status).toBe(429);
    expect(again.body.error.unavailableUntil).toBe(first.body.resendUnavailableUntil);
    expect(again.headers['retry-after']).toBeDefined();
    clock.advance(31_000);
    expect((await challenge(s, { otpEmail: true })).status).toBe(201);
  });

  test('at most 10 codes an hour', async () => {
    const s = await pendingSession();
    for (let i = 0; i < 10; i++) {
      expect((await challenge(s, { otpEmail: true })).status).toBe(201);
      clock.advance(31_000);
    }
    expect((await challenge(s, { otpEmail: true })).status).toBe(429);
  });

  test('{ otpSms: true } texts the code to the phone, masked in the answer', async () => {
    const s = await pendingSession({ otpSms: true, phone: '+46700000001' });
    const res = await challenge(s, { otpSms: true });
    expect(res.status).toBe(201);
    expect(res.body.sentTo).toBe('+46*******01');
    expect(codeFrom((await latestOutboxMessage(ctx.services, '+46700000001'))!.body)).toMatch(/^\d{6}$/);
  });

  test('SMS for a user without the SMS factor or phone answers 400 MFA_REQUIRED_BUT_NOT_ENABLED', async () => {
    const s = await pendingSession();
    const res = await challenge(s, { otpSms: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MFA_REQUIRED_BUT_NOT_ENABLED');
  });

  test("another session's id answers 401 INVALID_SESSION_ID", async () => {
    const mine = await pendingSession();
    const theirs = await pendingSession();
    const res = await request(ctx.app)
      .post(`/core/v1/sessions/${theirs.id}/challenges`)
      .set(v1)
      .set('authorization', `Bearer ${mine.accessToken}`)
      .send({ otpEmail: true });
    expect(res.body.error.code).toBe('INVALID_SESSION_ID');
  });
});

describe('PATCH /core/v1/sessions/{id}', () => {
  test('the right code verifies the factor, answers the session with new tokens, and unlocks the API', async () => {
    const s = await pendingSession();
    // Before verification, the session may not use the rest of the API.
    const before = await request(ctx.app)
      .get('/core/v1/tenants')
      .set(v1)
      .set('authorization', `Bearer ${s.accessToken}`);
    expect(before.status).toBe(403);
    await challenge(s, { otpEmail: true });
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    const res = await verify(s, { otpEmail: { code } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: s.id,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      factors: { password: 'verified', otpEmail: 'verified' },
    });
    const after = await request(ctx.app)
      .get('/core/v1/tenants')
      .set(v1)
      .set('authorization', `Bearer ${s.accessToken}`);
    expect(after.status).not.toBe(403);
    // The code is spent.
    expect((await verify({ ...s, accessToken: res.body.accessToken }, { otpEmail: { code } })).status).toBe(400);
  });

  test('a wrong code answers 401 INVALID_CREDENTIALS; after 5 wrong tries even the right code is refused (MFA_TOKEN_EXPIRED)', async () => {
    const s = await pendingSession();
    await challenge(s, { otpEmail: true });
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verify(s, { otpEmail: { code: wrong } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    }
    // Used up: the right code is refused too, with the answer that asks for a new code.
    expect((await verify(s, { otpEmail: { code } })).body.error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  test('parallel wrong codes cannot get past the limit of 5 tries', async () => {
    const s = await pendingSession();
    await challenge(s, { otpEmail: true });
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    const wrongs = Array.from({ length: 12 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'));
    await Promise.all(wrongs.map((w) => verify(s, { otpEmail: { code: w } })));
    const row = await ctx.services.db
      .selectFrom('challenges')
      .select('attempts')
      .where('session_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    // Refused: the code is used up (401), or the account's lockout for this address holds (429).
    expect([401, 429]).toContain((await verify(s, { otpEmail: { code } })).status);
  });

  test('an expired code answers 401 MFA_TOKEN_EXPIRED', async () => {
    const s = await pendingSession();
    await challenge(s, { otpEmail: true });
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    clock.advance(10 * 60_000 + 1_000);
    const res = await verify(s, { otpEmail: { code } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('MFA_TOKEN_EXPIRED');
  });

  test('a new code replaces the previous one', async () => {
    const s = await pendingSession();
    await challenge(s, { otpEmail: true });
    const first = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    clock.advance(31_000);
    await challenge(s, { otpEmail: true });
    const second = codeFrom((await latestOutboxMessage(ctx.services, s.email))!.body);
    if (first !== second) expect((await verify(s, { otpEmail: { code: first } })).status).toBe(401);
    expect((await verify(s, { otpEmail: { code: second } })).status).toBe(200);
  });

  test('an SMS code verifies the SMS factor', async () => {
    const s = await pendingSession({ otpSms: true, phone: '+46700000002' });
    await challenge(s, { otpSms: true });
    const code = codeFrom((await latestOutboxMessage(ctx.services, '+46700000002'))!.body);
    const res = await verify(s, { otpSms: { code } });
    expect(res.body.factors).toEqual({ password: 'verified', otpSms: 'verified' });
  });

  test('a code that is not six digits answers 400 BAD_REQUEST', async () => {
    const s = await pendingSession();
    for (const code of ['12345', '1234567', 'abcdef', '12 456'])
      expect((await verify(s, { otpEmail: { code } })).status).toBe(400);
  });
});
