// The page bounds of every list of the organisation API (spec section 5): limit 0–100 default 10, offset ≥ 0
// default 0, an exact totalCount, stable order across pages.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  addMember,
  client,
  expectError,
  insertCaller,
  insertGroup,
  insertOrganisation,
  makeTenantAdmin,
  type Caller,
} from '../support/organisation-fixtures';

let ctx: TestContext;
let org: { tenantId: number; accountId: number };
let admin: Caller;
let groupId: number;
const count = 12;

beforeAll(async () => {
  ctx = await createTestContext();
  const s = ctx.services;
  org = await insertOrganisation(s, 'Paged');
  admin = await insertCaller(s, { tenants: [org.tenantId] });
  await makeTenantAdmin(s, org.tenantId, admin.id);
  // Twelve of everything, all with the same name, so only the id tie-break orders them.
  groupId = await insertGroup(s, org, 'Same');
  await addMember(s, groupId, admin.id, org.tenantId);
  for (let i = 1; i < count; i++) {
    const id = await insertGroup(s, org, 'Same');
    const member = await insertCaller(s, { tenants: [org.tenantId], name: 'Test User' });
    await addMember(s, groupId, member.id, org.tenantId);
    await addMember(s, id, admin.id, org.tenantId);
  }
  await s.db
    .insertInto('meeting_rooms')
    .values(
      Array.from({ length: count }, () => ({ tenant_id: org.tenantId, name: 'Same', url: 'https://meet.test/same' })),
    )
    .execute();
  await s.db
    .insertInto('contacts')
    .values(
      Array.from({ length: count }, () => ({
        tenant_id: org.tenantId,
        account_id: org.accountId,
        name: 'Same',
        title: '',
        email: 's@x.test',
        phone_number: '+461',
        type: 'UserSupport' as const,
      })),
    )
    .execute();
  for (let i = 0; i < count; i++) await client(ctx, admin, org.tenantId).post('/api-keys', { name: 'Same' });
  for (let i = 1; i < count; i++) {
    const tenantId = (await insertOrganisation(s, 'Same')).tenantId;
    await s.db
      .insertInto('memberships')
      .values({ tenant_id: tenantId, user_id: admin.id, permissions: '{}' })
      .execute();
  }
});
afterAll(() => ctx.close());

const lists = [
  ['/tenants', false],
  ['/groups', true],
  ['/groups/{groupId}/members', true],
  ['/meeting-rooms', true],
  ['/api-keys', true],
  ['/contacts', true],
] as const;

const get = (path: string, scoped: boolean) => {
  const url = `/core/v1${path.replace('{groupId}', String(groupId))}`;
  const req = request(ctx.app).get(url).set(v1).set('authorization', `Bearer ${admin.token}`);
  return scoped ? req.set('cosafe-tenant-id', String(org.tenantId)) : req;
};
const idsOf = (body: { data: Record<string, unknown>[] }) => body.data.map((x) => x.id ?? x.apiKeyId);

describe.each(lists)('GET %s', (path, scoped) => {
  const at = (query: string) => get(`${path}${query}`, scoped);

  test('without limit and offset, answers the first 10 and the exact total', async () => {
    const res = await at('');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.pagination).toEqual({ totalCount: count, offset: 0, limit: 10 });
  });

  test('pages are stable: walking with limit and offset gives every item once, in the order of one big page', async () => {
    const all = idsOf((await at('?limit=100')).body);
    expect(new Set(all).size).toBe(count);
    const walked = [];
    for (let offset = 0; offset < count; offset += 5)
      walked.push(...idsOf((await at(`?limit=5&offset=${offset}`)).body));
    expect(walked).toEqual(all);
  });

  test('limit=0 answers no items but the exact total', async () => {
    expect((await at('?limit=0')).body).toEqual({ data: [], pagination: { totalCount: count, offset: 0, limit: 0 } });
  });

  test('an offset past the end answers no items and the exact total', async () => {
    expect((await at('?offset=50')).body).toEqual({
      data: [],
      pagination: { totalCount: count, offset: 50, limit: 10 },
    });
  });

  test.each(['limit=101', 'limit=-1', 'limit=ten', 'offset=-1', 'offset=1.5', 'limit=2147483648000'])(
    'when %s, answers 400 BAD_REQUEST',
    async (query) => {
      expectError(await at(`?${query}`), 400, 'BAD_REQUEST');
    },
  );
});
