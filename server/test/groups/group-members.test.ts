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
let viewer: Caller;
let ownOnly: Caller;
let outsider: Caller;
const g: Record<string, number> = {};
const u: Record<string, Caller> = {};

const setTitle = (id: number, title: string | null) =>
  ctx.services.db.updateTable('users').set({ title }).where('id', '=', id).execute();
const ids = (res: { status: number; body: { data?: { id: number }[] } }) => {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body.data!.map((x) => x.id);
};

beforeAll(async () => {
  ctx = await createTestContext();
  const alpha = { tenants: ['alpha'] as const };
  const world = await buildWorld(ctx.services, {
    tenants: { alpha: 'Alpha', beta: 'Beta' },
    users: {
      viewer: { ...alpha, permissions: only('groups.mayInteractWithAll'), name: 'Viewer' },
      ownOnly: { ...alpha, permissions: only('groups.mayInteractWithOwn'), name: 'Own Only' },
      outsider: { tenants: ['beta'], permissions: only('groups.mayInteractWithAll'), name: 'Outsider' },
      // Names and titles chosen so that every sort order differs, with a tie on name and on title.
      bo: { ...alpha, name: 'Bo Berg' },
      ada: { ...alpha, name: 'ada Ek' },
      cy: { ...alpha, name: 'Cy Holm' },
      bo2: { ...alpha, name: 'Bo Berg' },
      dan: { ...alpha, name: 'Dan 100% Ok' },
    },
    groups: {
      team: { tenant: 'alpha', name: 'Team', members: ['bo', 'ada', { user: 'cy', admin: true }, 'bo2', 'dan'] },
      hidden: { tenant: 'alpha', name: 'Secret', type: 'hidden', members: ['ownOnly'] },
      cross: {
        tenant: 'alpha',
        name: 'Cross',
        type: 'crossOrg',
        partners: ['beta'],
        members: ['ada', { user: 'outsider', tenant: 'beta' }],
      },
      beta: { tenant: 'beta', name: 'Beta team', members: ['outsider'] },
    },
  });
  ({ alpha: orgA, beta: orgB } = world.tenants);
  ({ viewer, ownOnly, outsider } = world.users);
  Object.assign(u, world.users);
  Object.assign(g, world.groups);
  const titles = { bo: 'Nurse', ada: null, cy: 'Caretaker', bo2: null, dan: 'nurse' };
  for (const [key, title] of Object.entries(titles)) await setTitle(u[key].id, title);
});
afterAll(() => ctx.close());

describe('GET /core/v1/groups/{groupId}', () => {
  test('answers a group the caller may see', async () => {
    const res = await client(ctx, viewer, orgA.tenantId).get(`/groups/${g.team}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: g.team,
      name: 'Team',
      type: 'default',
      membersCount: 5,
      account: { id: orgA.accountId, name: 'Alpha HQ', tenantId: orgA.tenantId },
      imageUrls: null,
    });
  });

  test('when the group is hidden and the caller is no member, answers 404 NOT_FOUND', async () => {
    expectError(await client(ctx, viewer, orgA.tenantId).get(`/groups/${g.hidden}`), 404, 'NOT_FOUND');
    expect((await client(ctx, ownOnly, orgA.tenantId).get(`/groups/${g.hidden}`)).status).toBe(200);
  });

  test('a tenant administrator sees a hidden group', async () => {
    const admin = await insertCaller(ctx.services, {
      tenants: [orgA.tenantId],
      permissions: only('groups.mayInteractWithAll'),
    });
    await makeTenantAdmin(ctx.services, orgA.tenantId, admin.id);
    expect((await client(ctx, admin, orgA.tenantId).get(`/groups/${g.hidden}`)).status).toBe(200);
  });

  test('with only mayInteractWithOwn, a group the caller is not in answers 404 NOT_FOUND', async () => {
    expectError(await client(ctx, ownOnly, orgA.tenantId).get(`/groups/${g.team}`), 404, 'NOT_FOUND');
  });

  test('a crossOrg group is visible from a partner tenant, with its owning account', async () => {
    const res = await client(ctx, outsider, orgB.tenantId).get(`/groups/${g.cross}`);
    expect(res.body).toMatchObject({
      id: g.cross,
      type: 'crossOrg',
      membersCount: 2,
      account: { id: orgA.accountId, tenantId: orgA.tenantId },
    });
  });

  test('when the id is not a positive number, answers 400 BAD_REQUEST', async () => {
    for (const bad of ['abc', '0', '-3', '1.5'])
      expectError(await client(ctx, viewer, orgA.tenantId).get(`/groups/${bad}`), 400, 'BAD_REQUEST');
  });

  test("another tenant's group answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, viewer, orgA.tenantId).get(`/groups/${g.beta}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, viewer, orgB.tenantId).get(`/groups/${g.beta}`), 403, 'FORBIDDEN');
    expectError(await client(ctx, viewer, orgA.tenantId).get('/groups/999999999'), 404, 'NOT_FOUND');
  });
});

describe('GET /core/v1/groups/{groupId}/members', () => {
  const members = (query = '') => client(ctx, viewer, orgA.tenantId).get(`/groups/${g.team}/members${query}`);

  test('lists members with their profile and isAdmin, by name then id', async () => {
    const res = await members();
    expect(ids(res)).toEqual([u.ada.id, u.bo.id, u.bo2.id, u.cy.id, u.dan.id]);
    const cy = res.body.data.find((m: { id: number }) => m.id === u.cy.id);
    expect(cy).toMatchObject({
      name: 'Cy Holm',
      title: 'Caretaker',
      email: u.cy.email,
      isAdmin: true,
      phoneNumbers: { primary: null, secondary: null },
      unavailableUntil: null,
    });
    expect(res.body.data.filter((m: { isAdmin: boolean }) => m.isAdmin)).toHaveLength(1);
    expect(res.body.pagination).toEqual({ totalCount: 5, offset: 0, limit: 10 });
  });

  test('sort=name:desc reverses names but keeps ties by id ascending', async () => {
    expect(ids(await members('?sort=name:desc'))).toEqual([u.dan.id, u.cy.id, u.bo.id, u.bo2.id, u.ada.id]);
    expect(ids(await members('?sort=name%3Adesc'))).toEqual([u.dan.id, u.cy.id, u.bo.id, u.bo2.id, u.ada.id]);
  });

  test('sort=title:asc puts users without a title last', async () => {
    expect(ids(await members('?sort=title:asc'))).toEqual([u.cy.id, u.bo.id, u.dan.id, u.ada.id, u.bo2.id]);
  });

  test('sort=title:desc puts users without a title first', async () => {
    expect(ids(await members('?sort=title:desc'))).toEqual([u.ada.id, u.bo2.id, u.bo.id, u.dan.id, u.cy.id]);
  });

  test('when sort is not one of the allowed values, answers 400 BAD_REQUEST', async () => {
    expectError(await members('?sort=email:asc'), 400, 'BAD_REQUEST');
  });

  test('name[match] is case-insensitive and takes % literally', async () => {
    expect(ids(await members('?name[match]=BO%20b'))).toEqual([u.bo.id, u.bo2.id]);
    expect(ids(await members('?name[match]=0%25'))).toEqual([u.dan.id]);
    expect(ids(await members('?name[match]=B%25g'))).toEqual([]);
  });

  test('pages are stable: limit and offset walk the whole list without repeats', async () => {
    const pages = [];
    for (const offset of [0, 2, 4]) pages.push(...ids(await members(`?sort=name:asc&limit=2&offset=${offset}`)));
    expect(pages).toEqual([u.ada.id, u.bo.id, u.bo2.id, u.cy.id, u.dan.id]);
    expect((await members('?limit=2&offset=4')).body.pagination).toEqual({ totalCount: 5, offset: 4, limit: 2 });
  });

  test('a crossOrg group lists its members of every tenant', async () => {
    const res = await client(ctx, outsider, orgB.tenantId).get(`/groups/${g.cross}/members`);
    expect(ids(res).sort()).toEqual([u.ada.id, outsider.id].sort());
  });

  test('a group the caller may not see answers 404 NOT_FOUND', async () => {
    expectError(await client(ctx, viewer, orgA.tenantId).get(`/groups/${g.hidden}/members`), 404, 'NOT_FOUND');
    expectError(await client(ctx, ownOnly, orgA.tenantId).get(`/groups/${g.team}/members`), 404, 'NOT_FOUND');
  });

  test("another tenant's group answers 404 NOT_FOUND, and with that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, viewer, orgA.tenantId).get(`/groups/${g.beta}/members`), 404, 'NOT_FOUND');
    expectError(await client(ctx, viewer, orgB.tenantId).get(`/groups/${g.beta}/members`), 403, 'FORBIDDEN');
  });
});
