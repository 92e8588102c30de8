// Lifting the ceiling of external messages. Scenario: in a crisis the tenant's senders reach their quotas; the
// refusal names the administrators; a tenant administrator (through the API) or the operator (through the
// operator tool) lifts the limits for the next hour, and each lift is recorded and logged. Anyone else trying to
// lift it is refused and lifts nothing. Limits here are small: 2 messages per sender, 3 per tenant, an hour.
import request from 'supertest';
import { adminRunner } from '../admin/admin-fixtures';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { insertExternalGroup, insertSenderSettings, only } from '../support/crisis-fixtures';
import { movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
const hour = 3_600_000;

beforeAll(async () => {
  ctx = await createTestContext({
    now: clock.now,
    env: { EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR: '2', EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR: '3' },
  });
});
afterAll(() => ctx.close());

interface Member {
  id: number;
  token: string;
  tenant: number;
}

async function member(tenant: number, admin = false, name = 'Test User'): Promise<Member> {
  const user = await insertUser(ctx.services, { tenants: [tenant], name, permissions: only('cec.maySend') });
  if (admin)
    await ctx.services.db
      .updateTable('memberships')
      .set({ is_admin: true })
      .where('user_id', '=', user.id)
      .where('tenant_id', '=', tenant)
      .execute();
  return { id: user.id, token: (await signIn(ctx.services, user.id)).accessToken, tenant };
}

const post = (who: Member, path: string, body: object) =>
  request(ctx.app)
    .post(`/core/v1${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(who.tenant))
    .set('authorization', `Bearer ${who.token}`)
    .send(body);

async function crisisTenant() {
  const tenant = await insertTenant(ctx.services);
  await insertSenderSettings(ctx.services, tenant);
  const group = (await insertExternalGroup(ctx.services, tenant, 'Parents', [{ name: 'Erik', phone: '+46700000001' }]))
    .id;
  const send = (who: Member) =>
    post(who, '/external-communications/messages', {
      externalCommunicationGroupIds: [group],
      text: 'Water is off',
      channel: { isEmail: false, isSms: true },
    });
  return { tenant, send };
}

const liftsOf = (tenant: number) =>
  ctx.services.db.selectFrom('cec_ceiling_lifts').selectAll().where('tenant_id', '=', tenant).execute();

test('a tenant administrator lifts the limits for the next hour through the API: refused senders send again, the lift is recorded and logged, and after the hour the limits hold again', async () => {
  const { tenant, send } = await crisisTenant();
  const admin = await member(tenant, true, 'Ada Admin');
  const [first, second] = [await member(tenant), await member(tenant)];
  expect((await send(first)).status).toBe(201);
  expect((await send(first)).status).toBe(201);
  expect((await send(first)).status).toBe(429);
  expect((await send(second)).status).toBe(201);
  const refused = await send(second);
  expect(refused.status).toBe(429);
  expect(refused.body.error.administrators).toEqual([{ name: 'Ada Admin', email: expect.any(String) }]);

  const lift = await post(admin, '/external-communications/ceiling-lifts', { reason: 'Fire at the north school' });
  expect(lift.status).toBe(201);
  const until = clock.now().getTime() + hour;
  expect(Math.abs(Date.parse(lift.body.liftedUntil) - until)).toBeLessThan(5_000);
  expect(lift.body).toMatchObject({
    reason: 'Fire at the north school',
    liftedBy: expect.stringMatching(/^Ada Admin </),
  });
  const [row] = await liftsOf(tenant);
  expect(row).toMatchObject({ lifted_by_user_id: admin.id, reason: 'Fire at the north school' });
  expect(
    ctx.logs.some((line) => line.includes('external-message ceiling lifted') && line.includes(`"tenantId":${tenant}`)),
  ).toBe(true);

  for (let i = 0; i < 5; i++) {
    expect((await send(first)).status).toBe(201);
    expect((await send(second)).status).toBe(201);
  }

  clock.advance(hour + 1_000);
  expect((await send(first)).status).toBe(201);
  expect((await send(first)).status).toBe(201);
  expect((await send(first)).status).toBe(429);
});

test('a member who is not a tenant administrator cannot lift the limits: 403, nothing recorded, still refused', async () => {
  const { tenant, send } = await crisisTenant();
  const mallory = await member(tenant);
  for (let i = 0; i < 2; i++) expect((await send(mallory)).status).toBe(201);
  const res = await post(mallory, '/external-communications/ceiling-lifts', { reason: 'Let me send' });
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('FORBIDDEN');
  expect(await liftsOf(tenant)).toEqual([]);
  expect((await send(mallory)).status).toBe(429);
  // An administrator of another tenant lifts nothing here either.
  const elsewhere = await member(await insertTenant(ctx.services), true);
  const foreign = await post({ ...elsewhere, tenant }, '/external-communications/ceiling-lifts', { reason: 'x' });
  expect(foreign.status).toBe(403);
  expect(await liftsOf(tenant)).toEqual([]);
  expect((await post(mallory, '/external-communications/ceiling-lifts', {})).status).toBe(400);
});

test('the operator tool lifts the limits of a tenant for the next hour, recorded as the operator tool', async () => {
  const { tenant, send } = await crisisTenant();
  const sender = await member(tenant);
  for (let i = 0; i < 2; i++) expect((await send(sender)).status).toBe(201);
  expect((await send(sender)).status).toBe(429);
  const run = await adminRunner(ctx)(['cec-ceiling', 'lift', '--tenant', String(tenant), '--reason', 'Storm']);
  expect(run.code).toBe(0);
  expect(run.out).toMatch(/the ceiling of external messages is lifted until \S+ \(lift \d+\)/);
  expect(await liftsOf(tenant)).toEqual([
    expect.objectContaining({ lifted_by_user_id: null, lifted_by: 'operator tool', reason: 'Storm' }),
  ]);
  expect((await send(sender)).status).toBe(201);
});
