import { createTestContext, type TestContext } from '../support/context';
import { client, expectError, insertAccount, only, type Caller } from '../support/organisation-fixtures';
import { buildWorld } from '../support/world';

let ctx: TestContext;
let orgA: { tenantId: number; accountId: number };
let orgB: { tenantId: number; accountId: number };
let secondAccountA: number;
let admin: Caller;
let reader: Caller;
let adminB: Caller;
let betaContact: number;

const contactRow = (id: number) =>
  ctx.services.db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();
const dpo = (accountId: number) => ({
  accountId,
  name: 'Maria Svensson',
  title: 'Data protection officer',
  email: 'dpo@alpha.test',
  phoneNumber: '+46700000002',
  type: 'DataProtectionOfficer',
});

beforeAll(async () => {
  ctx = await createTestContext();
  const s = ctx.services;
  const world = await buildWorld(s, {
    tenants: { alpha: 'Alpha', beta: 'Beta' },
    users: {
      admin: { tenants: ['alpha'], adminOf: ['alpha'], permissions: only() },
      reader: { tenants: ['alpha'] },
      adminB: { tenants: ['beta'], adminOf: ['beta'] },
    },
  });
  ({ alpha: orgA, beta: orgB } = world.tenants);
  ({ admin, reader, adminB } = world.users);
  secondAccountA = await insertAccount(s, orgA.tenantId, 'Alpha North');
  betaContact = (
    await client(ctx, adminB, orgB.tenantId).post('/contacts', {
      ...dpo(orgB.accountId),
      name: 'Beta DPO',
      email: 'dpo@beta.test',
    })
  ).body.id;
});
afterAll(() => ctx.close());

describe('POST /core/v1/contacts', () => {
  test('a tenant administrator adds a contact to an account of the tenant', async () => {
    const res = await client(ctx, admin, orgA.tenantId).post('/contacts', dpo(orgA.accountId));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), ...dpo(orgA.accountId) });
    expect(await contactRow(res.body.id)).toMatchObject({
      tenant_id: orgA.tenantId,
      account_id: orgA.accountId,
      email: 'dpo@alpha.test',
      type: 'DataProtectionOfficer',
    });
  });

  test.each([
    ['an invalid email', { email: 'not-an-email' }],
    ['no accountId', { accountId: undefined }],
    ['an unknown type', { type: 'Janitor' }],
    ['a phone number with letters', { phoneNumber: '+46abc' }],
    ['an empty name', { name: '' }],
  ])('when the body has %s, answers 400 BAD_REQUEST', async (_what, change) => {
    expectError(
      await client(ctx, admin, orgA.tenantId).post('/contacts', { ...dpo(orgA.accountId), ...change }),
      400,
      'BAD_REQUEST',
    );
  });

  test('a user who may not change contacts answers 403 INSUFFICIENT_PRIVILEGES and nothing is created', async () => {
    const before = await ctx.services.db.selectFrom('contacts').select('id').execute();
    expectError(
      await client(ctx, reader, orgA.tenantId).post('/contacts', dpo(orgA.accountId)),
      403,
      'INSUFFICIENT_PRIVILEGES',
    );
    expect(await ctx.services.db.selectFrom('contacts').select('id').execute()).toHaveLength(before.length);
  });

  test("an account of another tenant answers 404 NOT_FOUND, and that tenant's header 403 FORBIDDEN", async () => {
    expectError(await client(ctx, admin, orgA.tenantId).post('/contacts', dpo(orgB.accountId)), 404, 'NOT_FOUND');
    expectError(await client(ctx, admin, orgB.tenantId).post('/contacts', dpo(orgB.accountId)), 403, 'FORBIDDEN');
    expect(
      await ctx.services.db.selectFrom('contacts').select('id').where('account_id', '=', orgB.accountId).execute(),
    ).toHaveLength(1);
  });
});

describe('GET /core/v1/contacts', () => {
  beforeAll(async () => {
    await client(ctx, admin, orgA.tenantId).post('/contacts', {
      ...dpo(secondAccountA),
      name: 'Support desk',
      title: '',
      email: 'support@alpha.test',
      type: 'UserSupport',
    });
    await client(ctx, admin, orgA.tenantId).post('/contacts', {
      ...dpo(orgA.accountId),
      name: 'anders support',
      email: 'anders@alpha.test',
      type: 'UserSupport',
    });
  });

  test("every member lists the tenant's contacts by name", async () => {
    const res = await client(ctx, reader, orgA.tenantId).get('/contacts');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { name: string }) => c.name)).toEqual([
      'anders support',
      'Maria Svensson',
      'Support desk',
    ]);
    expect(res.body.pagination).toEqual({ totalCount: 3, offset: 0, limit: 10 });
  });

  test('accountId and type filter, alone and together', async () => {
    const names = async (q: string) =>
      (await client(ctx, reader, orgA.tenantId).get(`/contacts?${q}`)).body.data.map((c: { name: string }) => c.name);
    expect(await names(`accountId=${secondAccountA}`)).toEqual(['Support desk']);
    expect(await names('type=UserSupport')).toEqual(['anders support', 'Support desk']);
    expect(await names(`accountId=${orgA.accountId}&type=UserSupport`)).toEqual(['anders support']);
  });

  test('when type is unknown or accountId not a positive number, answers 400 BAD_REQUEST', async () => {
    expectError(await client(ctx, reader, orgA.tenantId).get('/contacts?type=Janitor'), 400, 'BAD_REQUEST');
    expectError(await client(ctx, reader, orgA.tenantId).get('/contacts?accountId=0'), 400, 'BAD_REQUEST');
  });

  test("another tenant's account gives an empty list, and that tenant's header 403 FORBIDDEN", async () => {
    expect((await client(ctx, reader, orgA.tenantId).get(`/contacts?accountId=${orgB.accountId}`)).body).toEqual({
      data: [],
      pagination: { totalCount: 0, offset: 0, limit: 10 },
    });
    const all = await client(ctx, reader, orgA.tenantId).get('/contacts?limit=100');
    expect(all.body.data.map((c: { id: number }) => c.id)).not.toContain(betaContact);
    expectError(await client(ctx, reader, orgB.tenantId).get('/contacts'), 403, 'FORBIDDEN');
  });
});

describe('PATCH /core/v1/contacts/{contactId}', () => {
  let id: number;
  beforeAll(async () => {
    id = (await client(ctx, admin, orgA.tenantId).post('/contacts', { ...dpo(orgA.accountId), name: 'To Change' })).body
      .id;
  });

  test('changes the given fields and keeps the others', async () => {
    const res = await client(ctx, admin, orgA.tenantId).patch(`/contacts/${id}`, {
      phoneNumber: '+46700000009',
      title: '',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...dpo(orgA.accountId), id, name: 'To Change', phoneNumber: '+46700000009', title: '' });
    expect(await contactRow(id)).toMatchObject({ phone_number: '+46700000009', title: '', name: 'To Change' });
  });

  test.each([
    ['an empty body', {}],
    ['an invalid email', { email: 'x@' }],
    ['the account', { accountId: secondAccountA }],
  ])('when the body has %s, answers 400 BAD_REQUEST', async (_w, body) => {
    expectError(await client(ctx, admin, orgA.tenantId).patch(`/contacts/${id}`, body), 400, 'BAD_REQUEST');
    expect((await contactRow(id))?.account_id).toBe(orgA.accountId);
  });

  test('a user who may not change contacts answers 403 INSUFFICIENT_PRIVILEGES and nothing changes', async () => {
    expectError(
      await client(ctx, reader, orgA.tenantId).patch(`/contacts/${id}`, { name: 'Hijacked' }),
      403,
      'INSUFFICIENT_PRIVILEGES',
    );
    expect((await contactRow(id))?.name).toBe('To Change');
  });

  test("another tenant's contact answers 404 NOT_FOUND and that tenant's header 403 FORBIDDEN; it does not change", async () => {
    expectError(
      await client(ctx, admin, orgA.tenantId).patch(`/contacts/${betaContact}`, { name: 'Hijacked' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await client(ctx, admin, orgB.tenantId).patch(`/contacts/${betaContact}`, { name: 'Hijacked' }),
      403,
      'FORBIDDEN',
    );
    expect((await contactRow(betaContact))?.name).toBe('Beta DPO');
  });
});

describe('DELETE /core/v1/contacts/{contactId}', () => {
  test('deletes the contact', async () => {
    const { body } = await client(ctx, admin, orgA.tenantId).post('/contacts', {
      ...dpo(orgA.accountId),
      name: 'To Delete',
    });
    expectError(
      await client(ctx, reader, orgA.tenantId).delete(`/contacts/${body.id}`),
      403,
      'INSUFFICIENT_PRIVILEGES',
    );
    expect(await contactRow(body.id)).toBeDefined();
    expect((await client(ctx, admin, orgA.tenantId).delete(`/contacts/${body.id}`)).status).toBe(204);
    expect(await contactRow(body.id)).toBeUndefined();
    expectError(await client(ctx, admin, orgA.tenantId).delete(`/contacts/${body.id}`), 404, 'NOT_FOUND');
  });

  test('when the id is not a positive number, answers 400 BAD_REQUEST', async () => {
    expectError(await client(ctx, admin, orgA.tenantId).delete('/contacts/abc'), 400, 'BAD_REQUEST');
  });

  test("another tenant's contact answers 404 NOT_FOUND and that tenant's header 403 FORBIDDEN; it stays", async () => {
    expectError(await client(ctx, admin, orgA.tenantId).delete(`/contacts/${betaContact}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, admin, orgB.tenantId).delete(`/contacts/${betaContact}`), 403, 'FORBIDDEN');
    expect(await contactRow(betaContact)).toBeDefined();
  });
});
