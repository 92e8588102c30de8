import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  client,
  expectError,
  insertCaller,
  insertOrganisation,
  only,
  type Caller,
} from '../support/organisation-fixtures';

let ctx: TestContext;
let orgA: { tenantId: number; accountId: number };
let orgB: { tenantId: number; accountId: number };
let orgC: { tenantId: number; accountId: number };
let member: Caller;
let cannotJoin: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  const s = ctx.services;
  orgA = await insertOrganisation(s, 'Zeta Town');
  orgB = await insertOrganisation(s, 'Alpha Hospital');
  orgC = await insertOrganisation(s, 'Other Org');
  await s.db
    .updateTable('tenants')
    .set({ may_any_user_activate_im_ok: true })
    .where('id', '=', orgB.tenantId)
    .execute();
  member = await insertCaller(s, { tenants: [orgA.tenantId, orgB.tenantId], permissions: only('meetingRoom.mayJoin') });
  cannotJoin = await insertCaller(s, { tenants: [orgA.tenantId], permissions: only('groups.mayInteractWithAll') });
  const room = (tenantId: number, name: string, isActive: boolean) => ({
    tenant_id: tenantId,
    name,
    url: `https://meet.test/${encodeURIComponent(name)}`,
    description: `About ${name}`,
    is_active: isActive,
  });
  await s.db
    .insertInto('meeting_rooms')
    .values([
      room(orgA.tenantId, 'crisis room', true),
      room(orgA.tenantId, 'Briefing', true),
      room(orgA.tenantId, 'Exercise', false),
      room(orgA.tenantId, 'Briefing', false),
      room(orgC.tenantId, 'Other room', true),
    ])
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

describe('GET /core/v1/meeting-rooms', () => {
  test("lists the tenant's rooms by name, ties by id", async () => {
    const res = await client(ctx, member, orgA.tenantId).get('/meeting-rooms');
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { name: string; isActive: boolean }) => [r.name, r.isActive])).toEqual([
      ['Briefing', true],
      ['Briefing', false],
      ['crisis room', true],
      ['Exercise', false],
    ]);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      name: 'Briefing',
      url: 'https://meet.test/Briefing',
      description: 'About Briefing',
      isActive: true,
    });
    expect(res.body.pagination).toEqual({ totalCount: 4, offset: 0, limit: 10 });
  });

  test('status=active lists only active rooms', async () => {
    const res = await client(ctx, member, orgA.tenantId).get('/meeting-rooms?status=active&limit=1&offset=1');
    expect(res.body.data.map((r: { name: string }) => r.name)).toEqual(['crisis room']);
    expect(res.body.pagination).toEqual({ totalCount: 2, offset: 1, limit: 1 });
  });

  test('when status is not active, answers 400 BAD_REQUEST', async () => {
    expectError(await client(ctx, member, orgA.tenantId).get('/meeting-rooms?status=inactive'), 400, 'BAD_REQUEST');
  });

  test('without meetingRoom.mayJoin, answers 403 FORBIDDEN', async () => {
    expectError(await client(ctx, cannotJoin, orgA.tenantId).get('/meeting-rooms'), 403, 'FORBIDDEN');
  });

  test("another tenant's rooms never appear, and its header answers 403 FORBIDDEN", async () => {
    const res = await client(ctx, member, orgB.tenantId).get('/meeting-rooms');
    expect(res.body).toEqual({ data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } });
    expectError(await client(ctx, member, orgC.tenantId).get('/meeting-rooms'), 403, 'FORBIDDEN');
  });
});
