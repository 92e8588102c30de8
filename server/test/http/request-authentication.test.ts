// Attacks on the request's authentication (http/auth.ts `authenticate`), each tried on an operation of a tenant
// (`cosafe-tenant-id`) and on one of the caller alone: a rule of that one function guards both, and a test on one
// kind of operation alone would leave the other unwatched.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';

let ctx: TestContext;
let tenant: number;
let victim: { id: number };
let attacker: { id: number };

beforeAll(async () => {
  ctx = await createTestContext();
  tenant = await insertTenant(ctx.services);
  victim = await insertUser(ctx.services, { tenants: [tenant] });
  attacker = await insertUser(ctx.services, { tenants: [tenant] });
});
afterAll(() => ctx.close());

/** The two kinds of operation: one of a tenant (its groups), one of the caller alone (their tenants). */
const operations = [
  [
    'a tenant operation',
    (token: string) =>
      request(ctx.app)
        .get('/core/v1/groups')
        .set(v1)
        .set('cosafe-tenant-id', String(tenant))
        .set('authorization', `Bearer ${token}`),
  ],
  [
    'an operation of the caller',
    (token: string) => request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${token}`),
  ],
] as const;

const refusedWith = (res: request.Response, httpStatus: number, code: string) => {
  expect(res.status).toBe(httpStatus);
  expect(res.body).toMatchObject({ status: 'error', error: { httpStatus, code } });
};

describe.each(operations)('on %s', (_kind, call) => {
  test('the operation answers a live session (the attacks below start from a working call)', async () => {
    const { accessToken } = await signIn(ctx.services, victim.id);
    expect((await call(accessToken)).status).toBe(200);
  });

  test("attack: a validly signed token names the attacker as user on the victim's session id", async () => {
    const { sessionId } = await signIn(ctx.services, victim.id);
    const token = await ctx.services.tokens.sign({ userId: attacker.id, sessionId });
    refusedWith(await call(token), 401, 'INVALID_SESSION');
  });

  test('attack: the access token of a session the user logged out of is used before it expires', async () => {
    const { sessionId, accessToken } = await signIn(ctx.services, victim.id);
    expect((await call(accessToken)).status).toBe(200);
    await ctx.services.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'logout' })
      .where('id', '=', sessionId)
      .execute();
    refusedWith(await call(accessToken), 401, 'INVALID_SESSION');
  });

  test('attack: a fresh access token of a session past its lifetime is used', async () => {
    const { sessionId } = await signIn(ctx.services, victim.id);
    await ctx.services.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', sessionId)
      .execute();
    const token = await ctx.services.tokens.sign({ userId: victim.id, sessionId });
    refusedWith(await call(token), 401, 'INVALID_SESSION');
  });

  test('attack: a stolen password alone, without the second factor, reaches the operation', async () => {
    const { accessToken } = await signIn(ctx.services, victim.id, { password: 'verified', otpEmail: 'unverified' });
    refusedWith(await call(accessToken), 403, 'FORBIDDEN');
  });

  test('attack: a token issued while the second factor was pending is kept and used after it was verified', async () => {
    const { sessionId } = await signIn(ctx.services, victim.id);
    const pendingToken = await ctx.services.tokens.sign({ userId: victim.id, sessionId, pending: true });
    refusedWith(await call(pendingToken), 401, 'INVALID_SESSION');
  });
});

describe('the tenant named by cosafe-tenant-id', () => {
  const groupsOf = (tenantId: number, token: string) =>
    request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', String(tenantId))
      .set('authorization', `Bearer ${token}`);
  const alarmsOf = (tenantId: number, token: string) =>
    request(ctx.app)
      .get('/core/v1/personal-alarms')
      .set(v1)
      .set('cosafe-tenant-id', String(tenantId))
      .set('authorization', `Bearer ${token}`);

  test.each([
    ['groups', groupsOf],
    ['personal alarms', alarmsOf],
  ])("attack: a member of one tenant reads another tenant's %s by naming it", async (_what, read) => {
    const other = await insertTenant(ctx.services);
    const { accessToken } = await signIn(ctx.services, attacker.id);
    expect((await read(tenant, accessToken)).status).toBe(200);
    refusedWith(await read(other, accessToken), 403, 'FORBIDDEN');
  });

  test.each([
    ['groups', groupsOf],
    ['personal alarms', alarmsOf],
  ])("attack: a member the tenant's directory deactivated goes on reading its %s", async (_what, read) => {
    const leaver = await insertUser(ctx.services, { tenants: [tenant] });
    const { accessToken } = await signIn(ctx.services, leaver.id);
    expect((await read(tenant, accessToken)).status).toBe(200);
    await ctx.services.db
      .updateTable('memberships')
      .set({ active: false })
      .where('user_id', '=', leaver.id)
      .where('tenant_id', '=', tenant)
      .execute();
    refusedWith(await read(tenant, accessToken), 403, 'FORBIDDEN');
  });
});
