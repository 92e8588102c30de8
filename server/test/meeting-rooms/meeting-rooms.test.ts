import { createTestContext, type TestContext } from '../support/context';
import { client, expectError, only, type Caller } from '../support/organisation-fixtures';
import { buildWorld, type Organisation } from '../support/world';

let ctx: TestContext;
let orgA: Organisation;
let orgB: Organisation;
let orgC: Organisation;
let member: Caller;
let cannotJoin: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  const world = await buildWorld(ctx.services, {
    tenants: { a: 'Zeta Town', b: 'Alpha Hospital', c: 'Other Org' },
    users: {
      member: { tenants: ['a', 'b'], permissions: only('meetingRoom.mayJoin') },
      cannotJoin: { tenants: ['a'], permissions: only('groups.mayInteractWithAll') },
    },
  });
  ({ a: orgA, b: orgB, c: orgC } = world.tenants);
  ({ member, cannotJoin } = world.users);
  const room = (tenantId: number, name: string, isActive: boolean) => ({
    tenant_id: tenantId,
    name,
    url: `https://meet.test/${encodeURIComponent(name)}`,
    description: `About ${name}`,
    is_active: isActive,
  });
  await ctx.services.db
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
