import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { expectError, insertCaller, only, type Caller } from '../support/organisation-fixtures';
import { buildWorld, type Organisation } from '../support/world';

let ctx: TestContext;
let orgA: Organisation;
let orgB: Organisation;
let member: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  const world = await buildWorld(ctx.services, {
    tenants: { a: 'Zeta Town', b: 'Alpha Hospital', c: 'Other Org' },
    users: { member: { tenants: ['a', 'b'], permissions: only('meetingRoom.mayJoin') } },
  });
  ({ a: orgA, b: orgB } = world.tenants);
  member = world.users.member;
  await ctx.services.db
    .updateTable('tenants')
    .set({ may_any_user_activate_im_ok: true })
    .where('id', '=', orgB.tenantId)
    .execute();
});
afterAll(() => ctx.close());

describe('GET /core/v1/tenants', () => {
  test("lists the caller's tenants by name, and no others", async () => {
    const res = await request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${member.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: orgB.tenantId,
          name: 'Alpha Hospital',
          logoUrl: 'https://tenant.test/logo.png',
          websiteUrl: 'https://tenant.test',
          mayAnyUserActivateImOk: true,
        },
        {
          id: orgA.tenantId,
          name: 'Zeta Town',
          logoUrl: 'https://tenant.test/logo.png',
          websiteUrl: 'https://tenant.test',
          mayAnyUserActivateImOk: false,
        },
      ],
      pagination: { totalCount: 2, offset: 0, limit: 10 },
    });
  });

  test('pages with limit and offset and counts exactly', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/tenants?limit=1&offset=1')
      .set(v1)
      .set('authorization', `Bearer ${member.token}`);
    expect(res.body.data.map((t: { id: number }) => t.id)).toEqual([orgA.tenantId]);
    expect(res.body.pagination).toEqual({ totalCount: 2, offset: 1, limit: 1 });
  });

  test('leaves out a tenant whose directory deactivated the caller', async () => {
    const both = await insertCaller(ctx.services, {
      tenants: [orgA.tenantId, orgB.tenantId],
      permissions: only('meetingRoom.mayJoin'),
    });
    await ctx.services.db
      .updateTable('memberships')
      .set({ active: false })
      .where('user_id', '=', both.id)
      .where('tenant_id', '=', orgB.tenantId)
      .execute();
    const res = await request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${both.token}`);
    expect(res.body.data.map((t: { id: number }) => t.id)).toEqual([orgA.tenantId]);
    expect(res.body.pagination.totalCount).toBe(1);
  });

  test('needs no tenant header, but a signed-in caller', async () => {
    expectError(await request(ctx.app).get('/core/v1/tenants').set(v1), 401, 'UNAUTHORIZED');
  });

  test('an api key is not a user credential and answers 401', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/tenants')
      .set(v1)
      .set('authorization', `Bearer csk_${'A'.repeat(43)}`);
    expect(res.status).toBe(401);
  });
});
