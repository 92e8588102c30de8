import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { apiKeyLimitPerTenant, resolveApiKey } from '../../src/modules/api-keys/api-keys.service';
import { keyedHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  client,
  expectError,
  insertCaller,
  insertOrganisation,
  makeTenantAdmin,
  type Caller,
} from '../support/organisation-fixtures';

let ctx: TestContext;
let orgA: { tenantId: number; accountId: number };
let orgB: { tenantId: number; accountId: number };
let orgC: { tenantId: number; accountId: number };
let admin: Caller;
let plainUser: Caller;
let adminB: Caller;

const keysOf = (tenantId: number) =>
  ctx.services.db.selectFrom('api_keys').selectAll().where('tenant_id', '=', tenantId).execute();

beforeAll(async () => {
  ctx = await createTestContext();
  const s = ctx.services;
  orgA = await insertOrganisation(s, 'Alpha');
  orgB = await insertOrganisation(s, 'Beta');
  orgC = await insertOrganisation(s, 'Gamma');
  // Every feature flag, but not the administrator role: flags do not manage api keys.
  plainUser = await insertCaller(s, { tenants: [orgA.tenantId] });
  admin = await insertCaller(s, { tenants: [orgA.tenantId] });
  await makeTenantAdmin(s, orgA.tenantId, admin.id);
  adminB = await insertCaller(s, { tenants: [orgB.tenantId, orgC.tenantId] });
  await makeTenantAdmin(s, orgB.tenantId, adminB.id);
  await makeTenantAdmin(s, orgC.tenantId, adminB.id);
});
afterAll(() => ctx.close());

describe('POST /core/v1/api-keys', () => {
  test('creates a scim key and answers its secret once; only an HMAC of the secret is stored', async () => {
    const res = await client(ctx, admin, orgA.tenantId).post('/api-keys', { name: 'Entra ID provisioning' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      apiKeyId: expect.any(String),
      name: 'Entra ID provisioning',
      scope: 'scim',
      createdAt: expect.any(String),
      key: expect.stringMatching(/^csk_[A-Za-z0-9_-]{43,}$/),
    });
    expect(Buffer.from(res.body.key.slice(4), 'base64url').length).toBeGreaterThanOrEqual(32);
    const [row] = await keysOf(orgA.tenantId);
    expect(row).toMatchObject({
      id: res.body.apiKeyId,
      name: 'Entra ID provisioning',
      scope: 'scim',
      created_by: admin.id,
    });
    expect(row.key_hash).toBe(keyedHash(ctx.services.secretKey, res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key.slice(4));
  });

  test('every key is different', async () => {
    const one = await client(ctx, adminB, orgC.tenantId).post('/api-keys', { name: 'One' });
    const two = await client(ctx, adminB, orgC.tenantId).post('/api-keys', { name: 'One' });
    expect(one.body.key).not.toBe(two.body.key);
    expect(one.body.apiKeyId).not.toBe(two.body.apiKeyId);
  });

  test.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    ['a key value', { name: 'n', key: 'csk_mine' }],
  ])('when the body has %s, answers 400 BAD_REQUEST', async (_what, body) => {
    expectError(await client(ctx, admin, orgA.tenantId).post('/api-keys', body), 400, 'BAD_REQUEST');
  });

  test('a user who is not a tenant administrator answers 403 FORBIDDEN and nothing is created', async () => {
    const before = (await keysOf(orgA.tenantId)).length;
    const res = await client(ctx, plainUser, orgA.tenantId).post('/api-keys', { name: 'Mine' });
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body.error.message).toBe('Only administrators of the tenant may manage its api keys');
    expect(await keysOf(orgA.tenantId)).toHaveLength(before);
  });

  test(`past ${apiKeyLimitPerTenant} keys in a tenant, answers 409 LIMIT_REACHED, also under concurrent requests`, async () => {
    const attempts = await Promise.all(
      Array.from({ length: apiKeyLimitPerTenant + 3 }, (_, i) =>
        client(ctx, adminB, orgB.tenantId).post('/api-keys', { name: `Key ${i}` }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(apiKeyLimitPerTenant);
    for (const r of attempts.filter((x) => x.status !== 201)) {
      expectError(r, 409, 'LIMIT_REACHED');
      expect(r.body.error.message).toBe(`The tenant already has ${apiKeyLimitPerTenant} api keys`);
    }
    expect(await keysOf(orgB.tenantId)).toHaveLength(apiKeyLimitPerTenant);
    // The limit is per tenant: another tenant still creates keys.
    expect((await client(ctx, admin, orgA.tenantId).post('/api-keys', { name: 'Still fine' })).status).toBe(201);
  });

  test("with another tenant's header, answers 403 FORBIDDEN", async () => {
    expectError(await client(ctx, admin, orgB.tenantId).post('/api-keys', { name: 'Sneaky' }), 403, 'FORBIDDEN');
  });
});

describe('GET /core/v1/api-keys', () => {
  test("lists the tenant's keys newest first, without secrets", async () => {
    const res = await client(ctx, admin, orgA.tenantId).get('/api-keys');
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: { name: string }) => k.name)).toEqual(['Still fine', 'Entra ID provisioning']);
    for (const key of res.body.data)
      expect(Object.keys(key).sort()).toEqual(['apiKeyId', 'createdAt', 'name', 'scope']);
    expect(res.body.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });
  });

  test('pages with limit and offset and counts exactly', async () => {
    const res = await client(ctx, adminB, orgB.tenantId).get('/api-keys?limit=10&offset=20');
    expect(res.body.data).toHaveLength(apiKeyLimitPerTenant - 20);
    expect(res.body.pagination).toEqual({ totalCount: apiKeyLimitPerTenant, offset: 20, limit: 10 });
  });

  test('a user who is not a tenant administrator answers 403 FORBIDDEN', async () => {
    expectError(await client(ctx, plainUser, orgA.tenantId).get('/api-keys'), 403, 'FORBIDDEN');
  });

  test("another tenant's keys never appear, and its header answers 403 FORBIDDEN", async () => {
    const ids = (await client(ctx, admin, orgA.tenantId).get('/api-keys?limit=100')).body.data.map(
      (k: { apiKeyId: string }) => k.apiKeyId,
    );
    const bIds = (await keysOf(orgB.tenantId)).map((k) => k.id);
    expect(ids.filter((id: string) => bIds.includes(id))).toEqual([]);
    expectError(await client(ctx, admin, orgB.tenantId).get('/api-keys'), 403, 'FORBIDDEN');
  });
});

describe('DELETE /core/v1/api-keys/{apiKeyId}', () => {
  test('deletes the key, which stops resolving at once', async () => {
    const created = await client(ctx, adminB, orgC.tenantId).post('/api-keys', { name: 'Short-lived' });
    expect(await resolveApiKey(ctx.services, created.body.key)).toEqual({
      apiKeyId: created.body.apiKeyId,
      tenantId: orgC.tenantId,
      scope: 'scim',
    });
    const res = await client(ctx, adminB, orgC.tenantId).delete(`/api-keys/${created.body.apiKeyId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await resolveApiKey(ctx.services, created.body.key)).toBeNull();
    expectError(
      await client(ctx, adminB, orgC.tenantId).delete(`/api-keys/${created.body.apiKeyId}`),
      404,
      'NOT_FOUND',
    );
  });

  test('when the id is not a UUID, answers 400 BAD_REQUEST', async () => {
    for (const bad of ['123', 'not-a-uuid', `${randomUUID()}x`])
      expectError(await client(ctx, admin, orgA.tenantId).delete(`/api-keys/${bad}`), 400, 'BAD_REQUEST');
  });

  test("another tenant's key answers 404 NOT_FOUND and stays; with that tenant's header 403 FORBIDDEN", async () => {
    const [bKey] = await keysOf(orgB.tenantId);
    expectError(await client(ctx, admin, orgA.tenantId).delete(`/api-keys/${bKey.id}`), 404, 'NOT_FOUND');
    expectError(await client(ctx, admin, orgB.tenantId).delete(`/api-keys/${bKey.id}`), 403, 'FORBIDDEN');
    expect((await keysOf(orgB.tenantId)).map((k) => k.id)).toContain(bKey.id);
  });

  test('a user who is not a tenant administrator answers 403 FORBIDDEN and the key stays', async () => {
    const [key] = await keysOf(orgA.tenantId);
    expectError(await client(ctx, plainUser, orgA.tenantId).delete(`/api-keys/${key.id}`), 403, 'FORBIDDEN');
    expect((await keysOf(orgA.tenantId)).map((k) => k.id)).toContain(key.id);
  });
});

describe('api keys and the user API', () => {
  test('a valid api key is never accepted as a bearer token of the user API', async () => {
    const { body } = await client(ctx, admin, orgA.tenantId).post('/api-keys', { name: 'Not for users' });
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', String(orgA.tenantId))
      .set('authorization', `Bearer ${body.key}`);
    expectError(res, 401, 'UNAUTHORIZED');
  });
});
