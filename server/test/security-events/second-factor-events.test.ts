// A second factor's events: a wrong code (in the transaction that counts it) and the sign-in it completes.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { codeFrom, goodPassword, insertUserWithPassword, latestOutboxMessage } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function pendingSession() {
  const user = await insertUserWithPassword(ctx.services, {
    tenants: [await insertTenant(ctx.services)],
    otpEmail: true,
  });
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
  return { ...(res.body as { id: string; accessToken: string }), user };
}

const send = (s: { id: string; accessToken: string }, method: 'post' | 'patch', path: string, body: object) =>
  request(ctx.app)
    [method](`/core/v1/sessions/${s.id}${path}`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`)
    .set('user-agent', 'Phone/2')
    .send(body);

const kindsOf = async (userId: number) =>
  (
    await ctx.services.db
      .selectFrom('security_events')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'asc')
      .execute()
  ).map((e) => [e.kind, e.outcome, e.details.method]);

describe('second-factor events', () => {
  test('a password that waits for its second factor is no sign-in yet: no event', async () => {
    const s = await pendingSession();
    expect(await kindsOf(s.user.id)).toEqual([]);
  });

  test('second_factor_failed: a wrong emailed code, never the code; sign_in_succeeded when the right one completes it', async () => {
    const s = await pendingSession();
    expect((await send(s, 'post', '/challenges', { otpEmail: true })).status).toBe(201);
    const code = codeFrom((await latestOutboxMessage(ctx.services, s.user.email))!.body);
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await send(s, 'patch', '', { otpEmail: { code: wrongCode } })).status).toBe(401);
    expect(await kindsOf(s.user.id)).toEqual([['second_factor_failed', 'failed', 'otpEmail']]);
    expect((await send(s, 'patch', '', { otpEmail: { code } })).status).toBe(200);
    expect(await kindsOf(s.user.id)).toEqual([
      ['second_factor_failed', 'failed', 'otpEmail'],
      ['sign_in_succeeded', 'succeeded', 'otpEmail'],
    ]);
    const rows = await ctx.services.db
      .selectFrom('security_events')
      .selectAll()
      .where('user_id', '=', s.user.id)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows.every((r) => r.user_agent === 'Phone/2')).toBe(true);
  });
});
