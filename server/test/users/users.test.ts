import { createTestContext, type TestContext } from '../support/context';
import {
  client,
  expectError,
  insertCaller,
  makeTenantAdmin,
  only,
  type Caller,
} from '../support/organisation-fixtures';
import { buildWorld } from '../support/world';

let ctx: TestContext;
let orgA: { tenantId: number; accountId: number };
let orgB: { tenantId: number; accountId: number };
let me: Caller;
let colleague: Caller;
let stranger: Caller;
let secretMember: Caller;
let ownOnly: Caller;
let betaUser: Caller;

const userRow = (id: number) =>
  ctx.services.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  ctx = await createTestContext();
  const world = await buildWorld(ctx.services, {
    tenants: { alpha: 'Alpha', beta: 'Beta' },
    users: {
      me: {
        tenants: ['alpha'],
        permissions: only('groups.mayInteractWithAll'),
        name: 'Me Myself',
        phone: '+46700000001',
      },
      colleague: { tenants: ['alpha'], name: 'Colleague' },
      stranger: { tenants: ['alpha'], name: 'Stranger' },
      secretMember: { tenants: ['alpha'], name: 'Secret Member' },
      ownOnly: { tenants: ['alpha'], permissions: only('groups.mayInteractWithOwn'), name: 'Own Only' },
      betaUser: { tenants: ['beta'], name: 'Beta User' },
    },
    groups: {
      team: { tenant: 'alpha', name: 'Team', members: ['colleague', 'ownOnly'] },
      other: { tenant: 'alpha', name: 'Other team', members: ['me'] },
      secret: { tenant: 'alpha', name: 'Secret', type: 'hidden', members: ['secretMember'] },
    },
  });
  ({ alpha: orgA, beta: orgB } = world.tenants);
  ({ me, colleague, stranger, secretMember, ownOnly, betaUser } = world.users);
});
afterAll(() => ctx.close());

describe('GET /core/v1/users/{userId}', () => {
  test("answers the caller's own profile, with default avatar urls when the user has no image", async () => {
    const res = await client(ctx, me, orgA.tenantId).get(`/users/${me.id}`);
    expect(res.status).toBe(200);
    const row = await userRow(me.id);
    expect(res.body).toEqual({
      id: me.id,
      name: 'Me Myself',
      title: null,
      imageUrls: {
        small: `${ctx.config.publicBaseUrl}/assets/avatars/default-small.png`,
        medium: `${ctx.config.publicBaseUrl}/assets/avatars/default-medium.png`,
        large: `${ctx.config.publicBaseUrl}/assets/avatars/default-large.png`,
      },
      email: me.email,
      phoneNumbers: { primary: '+46700000001', secondary: null },
      lastAccessAt: row.created_at.toISOString(),
      unavailableUntil: null,
    });
  });

  test('answers the stored image in three sizes and the last access time', async () => {
    const lastAccess = new Date('2026-11-20T15:30:00.000Z');
    await ctx.services.db
      .updateTable('users')
      .set({ image_url: 'https://cdn.test/users/7/{size}.jpg', last_access_at: lastAccess })
      .where('id', '=', colleague.id)
      .execute();
    const res = await client(ctx, me, orgA.tenantId).get(`/users/${colleague.id}`);
    expect(res.body.imageUrls).toEqual({
      small: 'https://cdn.test/users/7/small.jpg',
      medium: 'https://cdn.test/users/7/medium.jpg',
      large: 'https://cdn.test/users/7/large.jpg',
    });
    expect(res.body.lastAccessAt).toBe(lastAccess.toISOString());
  });

  test('answers another user who is a member of a group the caller may see', async () => {
    expect((await client(ctx, me, orgA.tenantId).get(`/users/${colleague.id}`)).status).toBe(200);
    expect((await client(ctx, ownOnly, orgA.tenantId).get(`/users/${colleague.id}`)).status).toBe(200);
  });

  test('a user of the tenant in no visible group answers 404 NOT_FOUND', async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${stranger.id}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${secretMember.id}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, ownOnly, orgA.tenantId).get(`/users/${me.id}`), 404, 'NOT_FOUND');
  });

  test('a tenant administrator reads every user of the tenant', async () => {
    const admin = await insertCaller(ctx.services, { tenants: [orgA.tenantId], permissions: only() });
    await makeTenantAdmin(ctx.services, orgA.tenantId, admin.id);
    expect((await client(ctx, admin, orgA.tenantId).get(`/users/${stranger.id}`)).status).toBe(200);
  });

  test('when the id is not a positive number, answers 400 BAD_REQUEST', async () => {
    expectError(await client(ctx, me, orgA.tenantId).get('/users/me'), 400, 'BAD_REQUEST');
  });

  test("another tenant's user answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${betaUser.id}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, me, orgB.tenantId).get(`/users/${betaUser.id}`), 403, 'FORBIDDEN');
    expectError(await client(ctx, me, orgA.tenantId).get('/users/987654321'), 404, 'NOT_FOUND');
  });
});

describe('PATCH /core/v1/users/{userId}', () => {
  test("sets the caller's secondary phone number and unavailableUntil", async () => {
    const res = await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}`, {
      phoneNumbers: { secondary: '+46700000002' },
      unavailableUntil: '2026-12-01T07:00:00.000Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      phoneNumbers: { primary: '+46700000001', secondary: '+46700000002' },
      unavailableUntil: '2026-12-01T07:00:00.000Z',
    });
    const row = await userRow(me.id);
    expect(row.phone_secondary).toBe('+46700000002');
    expect(row.unavailable_until?.toISOString()).toBe('2026-12-01T07:00:00.000Z');
  });

  test('changes only what the body names', async () => {
    await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}`, { phoneNumbers: { secondary: '+46700000003' } });
    const row = await userRow(me.id);
    expect(row.phone_secondary).toBe('+46700000003');
    expect(row.unavailable_until?.toISOString()).toBe('2026-12-01T07:00:00.000Z');
  });

  test('null clears the secondary phone number and marks the user available', async () => {
    const res = await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}`, {
      phoneNumbers: { secondary: null },
      unavailableUntil: null,
    });
    expect(res.body).toMatchObject({ phoneNumbers: { secondary: null }, unavailableUntil: null });
    const row = await userRow(me.id);
    expect([row.phone_secondary, row.unavailable_until]).toEqual([null, null]);
  });

  test.each([
    ['an empty body', {}],
    ['another field', { name: 'New Name' }],
    ['the primary phone number', { phoneNumbers: { primary: '+46700000009', secondary: null } }],
    ['a phone number without +', { phoneNumbers: { secondary: '0700000002' } }],
    ['a phone number over 16 characters', { phoneNumbers: { secondary: '+4670000000200000' } }],
    ['a date that is not a timestamp', { unavailableUntil: 'next week' }],
  ])('when the body has %s, answers 400 BAD_REQUEST and changes nothing', async (_what, body) => {
    const before = await userRow(me.id);
    expectError(await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}`, body), 400, 'BAD_REQUEST');
    expect(await userRow(me.id)).toEqual(before);
  });

  test('another user, even for a tenant administrator, answers 403 FORBIDDEN and changes nothing', async () => {
    const admin = await insertCaller(ctx.services, {
      tenants: [orgA.tenantId],
      permissions: only('groups.mayInteractWithAll'),
    });
    await makeTenantAdmin(ctx.services, orgA.tenantId, admin.id);
    for (const caller of [me, admin]) {
      expectError(
        await client(ctx, caller, orgA.tenantId).patch(`/users/${colleague.id}`, {
          unavailableUntil: '2026-12-24T00:00:00.000Z',
        }),
        403,
        'FORBIDDEN',
      );
    }
    expect((await userRow(colleague.id)).unavailable_until).toBeNull();
  });

  test("another tenant's user answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN, changing nothing", async () => {
    const body = { phoneNumbers: { secondary: '+46700000066' } };
    expectError(await client(ctx, me, orgA.tenantId).patch(`/users/${betaUser.id}`, body), 404, 'NOT_FOUND');
    expectError(await client(ctx, me, orgB.tenantId).patch(`/users/${betaUser.id}`, body), 403, 'FORBIDDEN');
    expect((await userRow(betaUser.id)).phone_secondary).toBeNull();
  });
});
