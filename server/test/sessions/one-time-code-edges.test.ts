// The edges of the one-time codes, each at its exact value on a stopped clock: the resend cooldown and the code's
// lifetime end at their instant, SMS is offered only where it can go, a code that cannot be sent leaves nothing
// behind, a request that compared no code costs nothing, and every refusal says which one it is.
import type { Server } from 'node:http';
import { verifyOneTimeCode } from '../../src/modules/sessions/one-time-codes';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { listen, type Answer } from '../support/from-address';
import { codeFrom, goodPassword, insertUserWithPassword, latestOutboxMessage } from '../support/sign-in';

const base = Date.now();
let offset = 0;
const now = () => new Date(base + offset);
const advance = (ms: number) => void (offset += ms);

let ctx: TestContext;
let server: Server;
let send: Awaited<ReturnType<typeof listen>>['send'];
beforeAll(async () => {
  ctx = await createTestContext({ now });
  ({ server, send } = await listen(ctx.app));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

let next = 10;
const address = () => `127.3.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const english = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
let phones = 0;

type Pending = { id: string; accessToken: string; email: string; phone: string | null };
async function pendingSession(factors: { otpEmail?: boolean; otpSms?: boolean; phone?: boolean } = {}) {
  const phone = factors.phone ? `+4670${String(++phones).padStart(7, '0')}` : null;
  const user = await insertUserWithPassword(ctx.services, {
    tenants: [await insertTenant(ctx.services)],
    otpEmail: factors.otpEmail ?? true,
    otpSms: factors.otpSms ?? false,
    phone,
  });
  const res = await send(address(), 'POST', '/core/v1/sessions', {
    grantType: 'password',
    email: user.email,
    password: goodPassword,
  });
  expect(res.status).toBe(201);
  return { ...(res.body as { id: string; accessToken: string }), email: user.email, phone } as Pending;
}
const ask = (s: Pending, kind: 'otpEmail' | 'otpSms', from = address()) =>
  send(from, 'POST', `/core/v1/sessions/${s.id}/challenges`, { [kind]: true }, english(s.accessToken));
const verify = (s: Pending, code: string, from = address(), kind: 'otpEmail' | 'otpSms' = 'otpEmail') =>
  send(from, 'PATCH', `/core/v1/sessions/${s.id}`, { [kind]: { code } }, english(s.accessToken));
const sentCode = async (to: string) => codeFrom((await latestOutboxMessage(ctx.services, to))!.body);
/** A code that a newer one retired is refused as a wrong code is. */
const RETIRED = { status: 401, code: 'INVALID_CREDENTIALS', message: 'Incorrect verification code' };
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
/** The caller of a session as the authentication builds it from the session's row. */
const callerOf = async (sessionId: string) => {
  const session = await ctx.services.db
    .selectFrom('sessions')
    .select(['user_id', 'factors'])
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return {
    userId: session.user_id,
    sessionId,
    factors: session.factors as Record<string, 'verified' | 'unverified'>,
    permissions: null,
    ssoTenantId: null,
  };
};
const refusal = (res: Answer) => ({
  status: res.status,
  code: (res.body as { error?: { code: string } }).error?.code,
  message: (res.body as { error?: { message: string } }).error?.message,
});

describe('asking for a code', () => {
  test('an email code goes by email and says how long it lasts; an SMS code goes by text message', async () => {
    const byEmail = await pendingSession();
    expect((await ask(byEmail, 'otpEmail')).status).toBe(201);
    const mail = await latestOutboxMessage(ctx.services, byEmail.email);
    expect(mail).toMatchObject({ channel: 'email' });
    expect(mail!.body).toContain('It is valid for 10 minutes.');

    // A session that waits for an SMS code alone (no email factor) may ask for one.
    const bySms = await pendingSession({ otpEmail: false, otpSms: true, phone: true });
    expect((await ask(bySms, 'otpSms')).status).toBe(201);
    expect(await latestOutboxMessage(ctx.services, bySms.phone!)).toMatchObject({ channel: 'sms' });
  });

  test('SMS is refused, with its reason, to a user with a phone but no SMS factor and to one with the factor but no phone', async () => {
    for (const s of [
      await pendingSession({ otpEmail: true, otpSms: false, phone: true }),
      await pendingSession({ otpEmail: true, otpSms: true, phone: false }),
    ])
      expect(refusal(await ask(s, 'otpSms'))).toEqual({
        status: 400,
        code: 'MFA_REQUIRED_BUT_NOT_ENABLED',
        message: 'SMS codes are not enabled for this user',
      });
  });

  test("another session's id, and a session with nothing left to prove, are refused with their reasons", async () => {
    const mine = await pendingSession();
    const theirs = await pendingSession();
    const other = await send(
      address(),
      'POST',
      `/core/v1/sessions/${theirs.id}/challenges`,
      { otpEmail: true },
      english(mine.accessToken),
    );
    expect(refusal(other)).toEqual({ status: 401, code: 'INVALID_SESSION_ID', message: 'Unknown session' });

    await ask(mine, 'otpEmail');
    const done = await verify(mine, await sentCode(mine.email));
    expect(done.status).toBe(200);
    const full = { ...mine, accessToken: (done.body as { accessToken: string }).accessToken };
    expect(refusal(await ask(full, 'otpEmail'))).toEqual({
      status: 400,
      code: 'MFA_REQUIRED_BUT_NOT_ENABLED',
      message: 'This session has no second factor to verify',
    });
  });

  test('the next code may be asked for at the very instant the cooldown ends, not a millisecond before', async () => {
    const s = await pendingSession();
    const first = await ask(s, 'otpEmail');
    expect(first.status).toBe(201);
    advance(30_000 - 1);
    expect(refusal(await ask(s, 'otpEmail'))).toMatchObject({
      status: 429,
      message: 'Wait before asking for another code',
    });
    advance(1);
    expect((await ask(s, 'otpEmail')).status).toBe(201);
  });

  test('a code that cannot be sent answers 503, is logged, and leaves no challenge behind, so asking again works at once', async () => {
    const s = await pendingSession();
    const sendMail = jest
      .spyOn(ctx.services.notifier.email, 'send')
      .mockRejectedValueOnce(new Error('mail relay down'));
    try {
      expect(refusal(await ask(s, 'otpEmail'))).toEqual({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The code could not be sent; try again',
      });
    } finally {
      sendMail.mockRestore();
    }
    const left = await ctx.services.db.selectFrom('challenges').select('id').where('session_id', '=', s.id).execute();
    expect(left).toEqual([]);
    const logged = ctx.logs.map((line) => JSON.parse(line)).find((l) => l.msg === 'could not send one-time code');
    expect(logged).toMatchObject({ err: 'mail relay down', channel: 'otpEmail' });
    expect((await ask(s, 'otpEmail')).status).toBe(201);
  });
});

describe('verifying a code', () => {
  test('a new code of either kind retires the older codes of both kinds; the code that signs in is spent', async () => {
    const s = await pendingSession({ otpEmail: true, otpSms: true, phone: true });
    expect((await ask(s, 'otpEmail')).status).toBe(201);
    const byEmail = await sentCode(s.email);
    advance(30_000);
    expect((await ask(s, 'otpSms')).status).toBe(201);
    const bySms = await sentCode(s.phone!);
    // The text message's code retired the email's.
    expect(refusal(await verify(s, byEmail))).toEqual(RETIRED);
    advance(30_000);
    expect((await ask(s, 'otpEmail')).status).toBe(201);
    const latest = await sentCode(s.email);
    // And the newer email code retired the text message's.
    expect(refusal(await verify(s, bySms, address(), 'otpSms'))).toEqual(RETIRED);
    expect((await verify(s, latest)).status).toBe(200);
    const open = await ctx.services.db
      .selectFrom('challenges')
      .select('id')
      .where('session_id', '=', s.id)
      .where('consumed_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
  });

  test('a code is good until the instant it expires, and not at that instant', async () => {
    const early = await pendingSession();
    const late = await pendingSession();
    await ask(early, 'otpEmail');
    await ask(late, 'otpEmail');
    advance(10 * 60_000 - 1);
    expect((await verify(early, await sentCode(early.email))).status).toBe(200);
    advance(1);
    expect(refusal(await verify(late, await sentCode(late.email)))).toEqual({
      status: 401,
      code: 'MFA_TOKEN_EXPIRED',
      message: 'The verification code has expired',
    });
  });

  test('wrong codes say so; the fifth uses the code up and the answer asks for a new one', async () => {
    const s = await pendingSession();
    await ask(s, 'otpEmail');
    const code = await sentCode(s.email);
    for (let i = 0; i < 5; i++)
      expect(refusal(await verify(s, wrong(code)))).toEqual({
        status: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Incorrect verification code',
      });
    expect(refusal(await verify(s, code))).toEqual({
      status: 401,
      code: 'MFA_TOKEN_EXPIRED',
      message: 'Too many wrong codes: ask for a new code',
    });
  });

  test('the tenth wrong code ends that sign-in, says so, and ends no other session', async () => {
    const bystander = await pendingSession();
    const s = await pendingSession();
    let last: Answer | undefined;
    for (let round = 0; round < 2; round++) {
      advance(30_000);
      expect((await ask(s, 'otpEmail')).status).toBe(201);
      const code = await sentCode(s.email);
      for (let i = 0; i < 5; i++) last = await verify(s, wrong(code));
    }
    expect(refusal(last!)).toEqual({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Too many wrong codes: the sign-in has ended, sign in again',
    });
    const ended = await ctx.services.db
      .selectFrom('sessions')
      .select(['id', 'revoked_reason'])
      .where('id', 'in', [s.id, bystander.id])
      .execute();
    expect(Object.fromEntries(ended.map((row) => [row.id, row.revoked_reason]))).toEqual({
      [s.id]: 'second_factor_failures',
      [bystander.id]: null,
    });
  });

  test('a request that compared no code costs nothing: past the free failures of one address, a wrong code is still judged', async () => {
    const s = await pendingSession();
    const from = address();
    // No code was asked for: nothing to compare, six times from one address (five failures are free there).
    for (let i = 0; i < 6; i++)
      expect(refusal(await verify(s, '123456', from))).toEqual({
        status: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'Incorrect verification code',
      });
    await ask(s, 'otpEmail', from);
    const code = await sentCode(s.email);
    expect(refusal(await verify(s, wrong(code), from))).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    expect((await verify(s, code, from)).status).toBe(200);
  });

  test('a user deleted after the request was authenticated ends the attempt before any code is compared', async () => {
    const s = await pendingSession();
    await ask(s, 'otpEmail');
    const code = await sentCode(s.email);
    const auth = await callerOf(s.id);
    const userId = auth.userId!;
    await ctx.services.db.deleteFrom('users').where('id', '=', userId).execute();
    await expect(verifyOneTimeCode(ctx.services, auth, s.id, 'otpEmail', code, address())).rejects.toMatchObject({
      code: 'INVALID_SESSION',
      message: 'The session has ended',
    });
  });

  test('a wrong code costs a failure that stays on record; a request that compared none leaves the record as it was', async () => {
    const failures = async () =>
      Number(
        (
          await ctx.services.db
            .selectFrom('throttles')
            .select((eb) => eb.fn.sum<string>('count').as('n'))
            .executeTakeFirstOrThrow()
        ).n ?? 0,
      );
    const s = await pendingSession();
    const from = address();
    const before = await failures();
    await verify(s, '123456', from);
    expect(await failures()).toBe(before);
    await ask(s, 'otpEmail', from);
    const asked = await failures();
    await verify(s, wrong(await sentCode(s.email)), from);
    expect(await failures()).toBeGreaterThan(asked);
  });

  test('a session revoked after its request was authenticated is refused inside the transaction', async () => {
    const s = await pendingSession();
    await ask(s, 'otpEmail');
    const code = await sentCode(s.email);
    // What the authentication saw, then the session ends before the answer is checked.
    const auth = await callerOf(s.id);
    await ctx.services.db.updateTable('sessions').set({ revoked_at: now() }).where('id', '=', s.id).execute();
    await expect(verifyOneTimeCode(ctx.services, auth, s.id, 'otpEmail', code, address())).rejects.toMatchObject({
      code: 'INVALID_SESSION',
      message: 'The session has ended',
    });
  });
});
