import request from 'supertest';
import type { TestContext } from '../support/context';
import { signIn, v1 } from '../support/fixtures';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { entraUser, scim, scimBase, scimKey } from '../support/scim-client';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext();
});
afterAll(() => ctx.close());

async function directory() {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const key = await scimKey(ctx, tenant);
  const client = scim(ctx, key);
  const users = [];
  for (const name of ['ada', 'bo', 'cy'])
    users.push((await client.post('/Users', entraUser(`${name}@${tenant.domain}`))).body as { id: string });
  return { ...tenant, key, client, users };
}

const memberIds = (group: { members?: { value: string }[] }) => (group.members ?? []).map((m) => m.value).sort();

describe('SCIM /Groups', () => {
  test('create with members → get → list by displayName, with and without members', async () => {
    const d = await directory();
    const created = await d.client.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Teachers',
      externalId: 'grp-1',
      members: [{ value: d.users[0].id }, { value: d.users[1].id }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      displayName: 'Teachers',
      externalId: 'grp-1',
      meta: { resourceType: 'Group' },
    });
    expect(memberIds(created.body)).toEqual([d.users[0].id, d.users[1].id].sort());
    const group = await ctx.services.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', Number(created.body.id))
      .executeTakeFirstOrThrow();
    expect(group).toMatchObject({ tenant_id: d.tenantId, name: 'Teachers', type: 'default', members_count: 2 });

    expect((await d.client.get(`/Groups/${created.body.id}`)).body).toEqual(created.body);
    const listed = await d.client.get(
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "teachers"')}`,
    );
    expect(listed.body.totalResults).toBe(1);
    expect(listed.body.Resources[0].members).toBeUndefined();
    expect((await d.client.get('/Groups')).body.Resources[0].members).toHaveLength(2);
  });

  test('PATCH adds and removes members the ways Entra ID and Okta send them, and renames', async () => {
    const d = await directory();
    const { body: g } = await d.client.post('/Groups', { displayName: 'Staff', members: [{ value: d.users[0].id }] });
    const added = await d.client.patch(`/Groups/${g.id}`, [
      { op: 'Add', path: 'members', value: [{ value: d.users[1].id }, { value: d.users[2].id }] },
    ]);
    expect(memberIds(added.body)).toEqual(d.users.map((u) => u.id).sort());
    const removedOne = await d.client.patch(`/Groups/${g.id}`, [
      { op: 'Remove', path: `members[value eq "${d.users[0].id}"]` },
    ]);
    expect(memberIds(removedOne.body)).toEqual([d.users[1].id, d.users[2].id].sort());
    const removedList = await d.client.patch(`/Groups/${g.id}`, [
      { op: 'remove', path: 'members', value: [{ value: d.users[1].id }] },
    ]);
    expect(memberIds(removedList.body)).toEqual([d.users[2].id]);
    const renamed = await d.client.patch(`/Groups/${g.id}`, [{ op: 'Replace', value: { displayName: 'All staff' } }]);
    expect(renamed.body.displayName).toBe('All staff');
    const replaced = await d.client.patch(`/Groups/${g.id}`, [
      { op: 'replace', path: 'members', value: [{ value: d.users[0].id }] },
    ]);
    expect(memberIds(replaced.body)).toEqual([d.users[0].id]);
  });

  test('PUT replaces name and members; DELETE removes the group', async () => {
    const d = await directory();
    const { body: g } = await d.client.post('/Groups', { displayName: 'Old', members: [{ value: d.users[0].id }] });
    const put = await d.client.put(`/Groups/${g.id}`, { displayName: 'New', members: [{ value: d.users[2].id }] });
    expect(put.body).toMatchObject({ displayName: 'New' });
    expect(memberIds(put.body)).toEqual([d.users[2].id]);
    expect((await d.client.delete(`/Groups/${g.id}`)).status).toBe(204);
    expect((await d.client.get(`/Groups/${g.id}`)).status).toBe(404);
    expect(
      await ctx.services.db.selectFrom('groups').select('id').where('id', '=', Number(g.id)).executeTakeFirst(),
    ).toBeUndefined();
  });

  test("hand-made groups of the tenant are not SCIM's to see", async () => {
    const d = await directory();
    const account = await ctx.services.db
      .insertInto('accounts')
      .values({ tenant_id: d.tenantId, name: 'HQ' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const manual = await ctx.services.db
      .insertInto('groups')
      .values({ tenant_id: d.tenantId, account_id: account.id, name: 'Crisis team' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await d.client.get(`/Groups/${manual.id}`)).status).toBe(404);
    expect((await d.client.delete(`/Groups/${manual.id}`)).status).toBe(404);
    expect((await d.client.get('/Groups')).body.totalResults).toBe(0);
  });
});

describe('SCIM tenant isolation of groups', () => {
  test("another tenant's users cannot be members, and another tenant's key cannot see or change the group", async () => {
    const a = await directory();
    const b = await directory();
    const bad = await a.client.post('/Groups', {
      displayName: 'Mixed',
      members: [{ value: a.users[0].id }, { value: b.users[0].id }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.scimType).toBe('invalidValue');
    const { body: g } = await a.client.post('/Groups', { displayName: 'Mine', members: [{ value: a.users[0].id }] });
    expect(
      (await a.client.patch(`/Groups/${g.id}`, [{ op: 'add', path: 'members', value: [{ value: b.users[1].id }] }]))
        .status,
    ).toBe(400);
    expect((await b.client.get(`/Groups/${g.id}`)).status).toBe(404);
    expect(
      (await b.client.patch(`/Groups/${g.id}`, [{ op: 'replace', path: 'displayName', value: 'Taken' }])).status,
    ).toBe(404);
    expect((await b.client.delete(`/Groups/${g.id}`)).status).toBe(404);
    expect(
      (await b.client.get(`/Groups?filter=${encodeURIComponent('displayName eq "Mine"')}`)).body.totalResults,
    ).toBe(0);
    expect(memberIds((await a.client.get(`/Groups/${g.id}`)).body)).toEqual([a.users[0].id]);
  });
});

describe('SCIM discovery and authentication', () => {
  test('ServiceProviderConfig, ResourceTypes and Schemas answer with the api key', async () => {
    const d = await directory();
    const config = await d.client.get('/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
      bulk: { supported: false },
    });
    const types = await d.client.get('/ResourceTypes');
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    const schemas = await d.client.get('/Schemas');
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
  });

  test("without a key, with a wrong key, or with a user's access token SCIM answers 401 in SCIM's shape", async () => {
    const d = await directory();
    const { accessToken } = await signIn(ctx.services, d.admin.id);
    for (const authorization of [undefined, 'Bearer csk_wrong', `Bearer ${accessToken}`]) {
      const req = request(ctx.app).get(`${scimBase}/Users`);
      const res = await (authorization ? req.set('authorization', authorization) : req);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    }
  });

  test('an api key authenticates nothing but SCIM', async () => {
    const d = await directory();
    const res = await request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${d.key}`);
    expect(res.status).toBe(401);
  });

  test('a deleted api key stops working at once', async () => {
    const d = await directory();
    const keys = await request(ctx.app)
      .get('/core/v1/api-keys')
      .set(v1)
      .set('cosafe-tenant-id', String(d.tenantId))
      .set('authorization', `Bearer ${d.adminToken}`);
    await request(ctx.app)
      .delete(`/core/v1/api-keys/${keys.body.data[0].apiKeyId}`)
      .set(v1)
      .set('cosafe-tenant-id', String(d.tenantId))
      .set('authorization', `Bearer ${d.adminToken}`);
    expect((await d.client.get('/Users')).status).toBe(401);
  });

  test("a body that is not JSON answers 400 invalidSyntax in SCIM's shape", async () => {
    const d = await directory();
    const res = await request(ctx.app)
      .post(`${scimBase}/Users`)
      .set('authorization', `Bearer ${d.key}`)
      .set('content-type', 'application/scim+json')
      .send('{not json');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
  });
});
