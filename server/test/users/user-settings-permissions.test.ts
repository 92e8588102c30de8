import { buildPermissions } from '../../src/modules/users/permission-flags';
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
let betaUser: Caller;

const settingsRow = (id: number) =>
  ctx.services.db.selectFrom('user_settings').selectAll().where('user_id', '=', id).executeTakeFirst();

beforeAll(async () => {
  ctx = await createTestContext();
  const world = await buildWorld(ctx.services, {
    tenants: { alpha: 'Alpha', beta: 'Beta' },
    users: {
      me: { tenants: ['alpha'], permissions: only('groups.mayInteractWithAll', 'cec.maySend') },
      colleague: { tenants: ['alpha'] },
      betaUser: { tenants: ['beta'] },
    },
    groups: { team: { tenant: 'alpha', name: 'Team', members: ['colleague'] } },
  });
  ({ alpha: orgA, beta: orgB } = world.tenants);
  ({ me, colleague, betaUser } = world.users);
});
afterAll(() => ctx.close());

describe('GET /core/v1/users/{userId}/settings', () => {
  test('answers the defaults before the user has chosen anything', async () => {
    const res = await client(ctx, me, orgA.tenantId).get(`/users/${me.id}/settings`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      receiveEmails: true,
      notifications: { checklists: true, documents: true },
      preferredLanguage: null,
    });
  });

  test('another user answers 403 FORBIDDEN, also for a tenant administrator', async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${colleague.id}/settings`), 403, 'FORBIDDEN');
    const admin = await insertCaller(ctx.services, {
      tenants: [orgA.tenantId],
      permissions: only('groups.mayInteractWithAll'),
    });
    await makeTenantAdmin(ctx.services, orgA.tenantId, admin.id);
    expectError(await client(ctx, admin, orgA.tenantId).get(`/users/${colleague.id}/settings`), 403, 'FORBIDDEN');
  });

  test("another tenant's user answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${betaUser.id}/settings`), 404, 'NOT_FOUND');
    expectError(await client(ctx, me, orgB.tenantId).get(`/users/${betaUser.id}/settings`), 403, 'FORBIDDEN');
  });
});

describe('PATCH /core/v1/users/{userId}/settings', () => {
  test('changes the given properties and keeps the others, also inside notifications', async () => {
    const res = await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}/settings`, {
      notifications: { documents: false },
      preferredLanguage: 'sv',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      receiveEmails: true,
      notifications: { checklists: true, documents: false },
      preferredLanguage: 'sv',
    });
    expect(await settingsRow(me.id)).toEqual({
      user_id: me.id,
      receive_emails: true,
      notify_checklists: true,
      notify_documents: false,
      preferred_language: 'sv',
    });

    const next = await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}/settings`, { receiveEmails: false });
    expect(next.body).toEqual({
      receiveEmails: false,
      notifications: { checklists: true, documents: false },
      preferredLanguage: 'sv',
    });
    expect((await client(ctx, me, orgA.tenantId).get(`/users/${me.id}/settings`)).body).toEqual(next.body);
  });

  test('preferredLanguage null clears the choice', async () => {
    const res = await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}/settings`, { preferredLanguage: null });
    expect(res.body.preferredLanguage).toBeNull();
    expect((await settingsRow(me.id))?.preferred_language).toBeNull();
  });

  test.each([
    ['an empty body', {}],
    ['empty notifications', { notifications: {} }],
    ['an unsupported language', { preferredLanguage: 'de' }],
    ['a non-boolean flag', { receiveEmails: 'yes' }],
    ['an unknown property', { theme: 'dark' }],
  ])('when the body has %s, answers 400 BAD_REQUEST and changes nothing', async (_what, body) => {
    const before = await settingsRow(me.id);
    expectError(await client(ctx, me, orgA.tenantId).patch(`/users/${me.id}/settings`, body), 400, 'BAD_REQUEST');
    expect(await settingsRow(me.id)).toEqual(before);
  });

  test('another user answers 403 FORBIDDEN and changes nothing', async () => {
    expectError(
      await client(ctx, me, orgA.tenantId).patch(`/users/${colleague.id}/settings`, { receiveEmails: false }),
      403,
      'FORBIDDEN',
    );
    expect(await settingsRow(colleague.id)).toBeUndefined();
  });

  test("another tenant's user answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN, changing nothing", async () => {
    expectError(
      await client(ctx, me, orgA.tenantId).patch(`/users/${betaUser.id}/settings`, { receiveEmails: false }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await client(ctx, me, orgB.tenantId).patch(`/users/${betaUser.id}/settings`, { receiveEmails: false }),
      403,
      'FORBIDDEN',
    );
    expect(await settingsRow(betaUser.id)).toBeUndefined();
  });
});

describe('GET /core/v1/users/{userId}/permissions', () => {
  test('answers every area with its flags and display order', async () => {
    const res = await client(ctx, me, orgA.tenantId).get(`/users/${me.id}/permissions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(buildPermissions(false, ['groups.mayInteractWithAll', 'cec.maySend']));
    expect(res.body.groups).toEqual({ mayInteractWithOwn: false, mayInteractWithAll: true, displayOrder: 6 });
  });

  test('answers the permissions of the tenant in the header', async () => {
    const both = await insertCaller(ctx.services, { tenants: [orgA.tenantId] });
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: orgB.tenantId, user_id: both.id, permissions: JSON.stringify(only('news.mayRead')) })
      .execute();
    expect((await client(ctx, both, orgA.tenantId).get(`/users/${both.id}/permissions`)).body.news.mayRead).toBe(true);
    expect((await client(ctx, both, orgA.tenantId).get(`/users/${both.id}/permissions`)).body.cec.maySend).toBe(true);
    expect((await client(ctx, both, orgB.tenantId).get(`/users/${both.id}/permissions`)).body.cec.maySend).toBe(false);
  });

  test('completes stored permissions that lack areas or flags: what is not stored is not granted', async () => {
    const partial = await insertCaller(ctx.services, { tenants: [] });
    const stored = { alarms: { mayActivate: true, displayOrder: null }, www: { maySee: true } };
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: orgA.tenantId, user_id: partial.id, permissions: JSON.stringify(stored) })
      .execute();
    const res = await client(ctx, partial, orgA.tenantId).get(`/users/${partial.id}/permissions`);
    expect(res.status).toBe(200);
    expect(res.body.alarms).toEqual({ mayActivate: true, mayDeactivate: false, displayOrder: null });
    expect(res.body.www).toEqual({ maySee: true, displayOrder: 16 });
    expect(res.body.documents.mayRead).toBe(false);
  });

  test('another user answers 403 FORBIDDEN', async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${colleague.id}/permissions`), 403, 'FORBIDDEN');
  });

  test("another tenant's user answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, me, orgA.tenantId).get(`/users/${betaUser.id}/permissions`), 404, 'NOT_FOUND');
    expectError(await client(ctx, me, orgB.tenantId).get(`/users/${betaUser.id}/permissions`), 403, 'FORBIDDEN');
  });
});
