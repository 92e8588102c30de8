import { createTestContext, type TestContext } from '../support/context';
import { addMember, client, expectError, insertCaller, only, type Caller } from '../support/organisation-fixtures';
import { buildWorld } from '../support/world';

let ctx: TestContext;
let orgA: { tenantId: number; accountId: number };
let orgB: { tenantId: number; accountId: number };
let seesAll: Caller;
let seesOwn: Caller;
let seesNone: Caller;
let admin: Caller;
let outsider: Caller;
const g: Record<string, number> = {};

const names = (res: { status: number; body: { data?: { name: string }[] } }) => {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body.data!.map((x) => x.name);
};

beforeAll(async () => {
  ctx = await createTestContext();
  const alpha = { tenant: 'alpha' } as const;
  const world = await buildWorld(ctx.services, {
    tenants: { alpha: 'Alpha', beta: 'Beta' },
    users: {
      seesAll: { tenants: ['alpha'], permissions: only('groups.mayInteractWithAll') },
      seesOwn: { tenants: ['alpha'], permissions: only('groups.mayInteractWithOwn') },
      seesNone: { tenants: ['alpha'], permissions: only('documents.mayRead') },
      admin: { tenants: ['alpha'], adminOf: ['alpha'], permissions: only('groups.mayInteractWithAll') },
      outsider: { tenants: ['beta'], permissions: only('groups.mayInteractWithAll') },
    },
    groups: {
      crisis: {
        ...alpha,
        name: 'Crisis team',
        functions: ['checklists', 'documents'],
        imageUrl: 'https://cdn.test/groups/1/{size}.png',
        members: [{ user: 'seesOwn', admin: true }, 'seesAll', 'admin'],
      },
      percent: { ...alpha, name: 'crisis 100%', functions: ['im_ok'] },
      underscore: { ...alpha, name: 'crisis_ops', functions: ['documents'] },
      backslash: { ...alpha, name: 'back\\slash' },
      caretakers: { ...alpha, name: 'Caretakers', functions: ['lone_worker_timer'], members: ['seesAll'] },
      management: { ...alpha, name: 'Management', type: 'hidden', functions: ['checklists'] },
      board: { ...alpha, name: 'Board', type: 'hidden', members: ['seesOwn', 'seesAll'] },
      coalert: { ...alpha, name: 'Responders', type: 'coAlert' },
      regional: {
        tenant: 'beta',
        name: 'Regional coordination',
        type: 'crossOrg',
        partners: ['alpha'],
        members: ['outsider', { user: 'seesOwn', tenant: 'alpha' }],
      },
      betaOnly: { tenant: 'beta', name: 'Beta crisis team', functions: ['checklists'], members: ['outsider'] },
    },
  });
  ({ alpha: orgA, beta: orgB } = world.tenants);
  ({ seesAll, seesOwn, seesNone, admin, outsider } = world.users);
  Object.assign(g, world.groups);
});
afterAll(() => ctx.close());

describe('GET /core/v1/groups', () => {
  test('with groups.mayInteractWithAll, lists every group of the tenant and its crossOrg groups, but hidden ones only where a member', async () => {
    const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?limit=100');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([
      'back\\slash',
      'Board',
      'Caretakers',
      'crisis 100%',
      'Crisis team',
      'crisis_ops',
      'Regional coordination',
      'Responders',
    ]);
    expect(res.body.pagination).toEqual({ totalCount: 8, offset: 0, limit: 100 });
  });

  test('pages of every size walk the tenant groups and the crossOrg groups merged in one order', async () => {
    const all = names(await client(ctx, seesAll, orgA.tenantId).get('/groups?limit=100'));
    for (const limit of [1, 2, 3]) {
      const walked: string[] = [];
      for (let offset = 0; offset < all.length + limit; offset += limit) {
        const res = await client(ctx, seesAll, orgA.tenantId).get(`/groups?limit=${limit}&offset=${offset}`);
        walked.push(...names(res));
        expect(res.body.pagination.totalCount).toBe(all.length);
      }
      expect(walked).toEqual(all);
    }
    expect(all).toContain('Regional coordination');
  });

  test('with only groups.mayInteractWithOwn, lists the groups the caller is a member of', async () => {
    const res = await client(ctx, seesOwn, orgA.tenantId).get('/groups');
    expect(names(res)).toEqual(['Board', 'Crisis team', 'Regional coordination']);
    expect(res.body.pagination.totalCount).toBe(3);
  });

  test('with neither group permission, answers an empty list', async () => {
    const res = await client(ctx, seesNone, orgA.tenantId).get('/groups');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } });
  });

  test('a tenant administrator also sees hidden groups they are not a member of', async () => {
    const res = await client(ctx, admin, orgA.tenantId).get('/groups?limit=100');
    expect(names(res)).toEqual(expect.arrayContaining(['Management', 'Board']));
    expect(res.body.pagination.totalCount).toBe(9);
  });

  test('answers each group with its type, members count, owning account and image urls', async () => {
    const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?limit=100');
    const crisis = res.body.data.find((x: { id: number }) => x.id === g.crisis);
    expect(crisis).toEqual({
      id: g.crisis,
      name: 'Crisis team',
      type: 'default',
      membersCount: 3,
      account: { id: orgA.accountId, name: 'Alpha HQ', tenantId: orgA.tenantId },
      imageUrls: {
        small: 'https://cdn.test/groups/1/small.png',
        medium: 'https://cdn.test/groups/1/medium.png',
        large: 'https://cdn.test/groups/1/large.png',
      },
    });
    const regional = res.body.data.find((x: { id: number }) => x.id === g.regional);
    expect(regional).toMatchObject({
      type: 'crossOrg',
      membersCount: 2,
      account: { id: orgB.accountId, tenantId: orgB.tenantId },
      imageUrls: null,
    });
  });

  test('membersCount follows members joining and leaving', async () => {
    const extra = await insertCaller(ctx.services, { tenants: [orgA.tenantId] });
    await addMember(ctx.services, g.coalert, extra.id, orgA.tenantId);
    const row = await ctx.services.db
      .selectFrom('groups')
      .select('members_count')
      .where('id', '=', g.coalert)
      .executeTakeFirstOrThrow();
    expect(row.members_count).toBe(1);
    await ctx.services.db.deleteFrom('group_members').where('group_id', '=', g.coalert).execute();
    const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=Responders');
    expect(res.body.data[0].membersCount).toBe(0);
  });

  describe('filters', () => {
    test('when name[match] differs in case, still matches', async () => {
      const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=CRISIS');
      expect(names(res)).toEqual(['crisis 100%', 'Crisis team', 'crisis_ops']);
    });

    test('when name[match] contains %, matches it literally', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=%25'))).toEqual(['crisis 100%']);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=crisis%25'))).toEqual([]);
    });

    test('when name[match] contains _, matches it literally', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=_'))).toEqual(['crisis_ops']);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=crisis_t'))).toEqual([]);
    });

    test('when name[match] contains a backslash, matches it literally', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=k%5Cs'))).toEqual([
        'back\\slash',
      ]);
    });

    test('two characters match anywhere in the name, in any case, and follow a rename (the bigram index)', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=IS'))).toEqual([
        'crisis 100%',
        'Crisis team',
        'crisis_ops',
      ]);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=%25'))).toEqual(['crisis 100%']);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=0%25'))).toEqual(['crisis 100%']);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=_o'))).toEqual(['crisis_ops']);
      await ctx.services.db
        .updateTable('groups')
        .set({ name: 'Krisgrupp' })
        .where('name', '=', 'Crisis team')
        .execute();
      try {
        expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=te'))).not.toContain(
          'Crisis team',
        );
        expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=GR'))).toContain('Krisgrupp');
        // Outside plain ASCII the scan answers (the folding of both sides is the database's).
        await ctx.services.db
          .updateTable('groups')
          .set({ name: 'Ärendegrupp' })
          .where('name', '=', 'Krisgrupp')
          .execute();
        expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=%C3%A4r'))).toContain(
          'Ärendegrupp',
        );
        expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=%C3%84r'))).toContain(
          'Ärendegrupp',
        );
      } finally {
        await ctx.services.db
          .updateTable('groups')
          .set({ name: 'Crisis team' })
          .where('name', '=', 'Ärendegrupp')
          .execute();
      }
    });

    test('two characters find crossOrg groups of other tenants and follow a change of type to hidden', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=Co'))).toEqual([
        'Regional coordination',
      ]);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=nD'))).toEqual(['Responders']);
      await ctx.services.db.updateTable('groups').set({ type: 'hidden' }).where('id', '=', g.coalert).execute();
      try {
        expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=nD'))).toEqual([]);
        expect(names(await client(ctx, admin, orgA.tenantId).get('/groups?name[match]=nD'))).toEqual(['Responders']);
      } finally {
        await ctx.services.db.updateTable('groups').set({ type: 'coAlert' }).where('id', '=', g.coalert).execute();
      }
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]=nD'))).toEqual(['Responders']);
      expect(names(await client(ctx, outsider, orgB.tenantId).get('/groups?name[match]=nD'))).toEqual([]);
    });

    test('when name[match] is empty, answers 400 BAD_REQUEST', async () => {
      expectError(await client(ctx, seesAll, orgA.tenantId).get('/groups?name[match]='), 400, 'BAD_REQUEST');
    });

    test('function[in] keeps groups with at least one of the functions', async () => {
      const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?function[in]=documents,lone_worker_timer');
      expect(names(res)).toEqual(['Caretakers', 'Crisis team', 'crisis_ops']);
    });

    test('function[in] does not reveal hidden groups', async () => {
      const res = await client(ctx, seesAll, orgA.tenantId).get('/groups?function[in]=checklists');
      expect(names(res)).toEqual(['Crisis team']);
    });

    test('when function[in] names an unknown function, answers 400 BAD_REQUEST', async () => {
      expectError(
        await client(ctx, seesAll, orgA.tenantId).get('/groups?function[in]=checklists,parties'),
        400,
        'BAD_REQUEST',
      );
    });

    test('membersCount[gte] keeps groups with at least that many members', async () => {
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?membersCount[gte]=2'))).toEqual([
        'Board',
        'Crisis team',
        'Regional coordination',
      ]);
      expect(names(await client(ctx, seesAll, orgA.tenantId).get('/groups?membersCount[gte]=3'))).toEqual([
        'Crisis team',
      ]);
    });

    test('when membersCount[gte] is negative or not a number, answers 400 BAD_REQUEST', async () => {
      expectError(await client(ctx, seesAll, orgA.tenantId).get('/groups?membersCount[gte]=-1'), 400, 'BAD_REQUEST');
      expectError(await client(ctx, seesAll, orgA.tenantId).get('/groups?membersCount[gte]=many'), 400, 'BAD_REQUEST');
    });

    test('memberUserId keeps the groups of that user among those the caller may see', async () => {
      const notInBoard = await insertCaller(ctx.services, {
        tenants: [orgA.tenantId],
        permissions: only('groups.mayInteractWithAll'),
      });
      expect(names(await client(ctx, notInBoard, orgA.tenantId).get(`/groups?memberUserId=${seesOwn.id}`))).toEqual([
        'Crisis team',
        'Regional coordination',
      ]);
      expect(names(await client(ctx, admin, orgA.tenantId).get(`/groups?memberUserId=${seesOwn.id}`))).toEqual([
        'Board',
        'Crisis team',
        'Regional coordination',
      ]);
    });

    test('filters combine with AND', async () => {
      const res = await client(ctx, seesAll, orgA.tenantId).get(
        `/groups?name[match]=crisis&function[in]=documents&memberUserId=${seesOwn.id}`,
      );
      expect(names(res)).toEqual(['Crisis team']);
    });

    test('an unknown query parameter answers 400 BAD_REQUEST', async () => {
      expectError(await client(ctx, seesAll, orgA.tenantId).get('/groups?name=crisis'), 400, 'BAD_REQUEST');
    });
  });

  describe('tenant isolation', () => {
    test("another tenant's groups never appear, also not through memberUserId", async () => {
      const all = await client(ctx, admin, orgA.tenantId).get('/groups?limit=100');
      expect(names(all)).not.toContain('Beta crisis team');
      const byMember = await client(ctx, admin, orgA.tenantId).get(`/groups?memberUserId=${outsider.id}`);
      expect(names(byMember)).toEqual(['Regional coordination']);
    });

    test('the owner tenant sees its crossOrg group too', async () => {
      expect(names(await client(ctx, outsider, orgB.tenantId).get('/groups'))).toEqual([
        'Beta crisis team',
        'Regional coordination',
      ]);
    });

    test("with another tenant's header, answers 403 FORBIDDEN", async () => {
      expectError(await client(ctx, seesAll, orgB.tenantId).get('/groups'), 403, 'FORBIDDEN');
    });
  });
});
