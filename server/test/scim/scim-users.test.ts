import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import type { TestContext } from '../support/context';
import { signIn, v1 } from '../support/fixtures';
import { goodPassword, goodPasswordHash } from '../support/sign-in';
import {
  challenge,
  createSsoTestContext,
  samlTenant,
  ssoPage,
  tenantsAs,
  verify,
} from '../support/enterprise-fixtures';
import { createTestIdp, readAuthnRequest, samlResponse, type TestIdp } from '../support/saml-idp';
import { entraUser, scim, scimKey } from '../support/scim-client';

let ctx: TestContext;
let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp('directory-idp');
  ctx = await createSsoTestContext();
});
afterAll(() => ctx.close());

async function provisionedTenant() {
  const tenant = await samlTenant(ctx.services, idp);
  return { ...tenant, client: scim(ctx, await scimKey(ctx, tenant)) };
}

/** A complete SAML sign-in; answers the create-session status when it fails there. */
async function samlSignIn(email: string): Promise<{ status: number; accessToken?: string; error?: string }> {
  const created = await request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'sso', email });
  if (created.status !== 201) return { status: created.status, error: created.body.error.code };
  const started = await challenge(ctx, created.body, { saml: { redirectUri: ssoPage } });
  const { id } = readAuthnRequest(started.body.authorizationUrl);
  const acs = await request(ctx.app)
    .post('/core/saml/acs')
    .type('form')
    .send({
      SAMLResponse: samlResponse(idp, {
        inResponseTo: id,
        email,
        audience: 'http://127.0.0.1:4000/core/saml/sp',
        acsUrl: 'http://127.0.0.1:4000/core/saml/acs',
      }),
      RelayState: ssoPage,
    });
  const code = new URL(acs.headers.location).searchParams.get('code');
  if (!code) return { status: 302, error: new URL(acs.headers.location).searchParams.get('error') ?? '' };
  const verified = await verify(ctx, created.body, { saml: { code } });
  return { status: verified.status, accessToken: verified.body.accessToken };
}

const passwordLogin = (email: string) =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'password', email, password: goodPassword });

describe('SCIM /Users', () => {
  test("create → get → list by userName: the user is a member of the key's tenant", async () => {
    const t = await provisionedTenant();
    const email = `new.teacher@${t.domain}`;
    const created = await t.client.post('/Users', entraUser(email));
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      externalId: `ext-${email}`,
      userName: email,
      displayName: 'Anna Andersson',
      title: 'Teacher',
      active: true,
      emails: [{ value: email, type: 'work', primary: true }],
      phoneNumbers: [{ value: '+46701234567', type: 'mobile', primary: true }],
      meta: { resourceType: 'User', location: `http://127.0.0.1:4000/core/v1/scim/v2/Users/${created.body.id}` },
    });
    const membership = await ctx.services.db
      .selectFrom('memberships')
      .selectAll()
      .where('user_id', '=', Number(created.body.id))
      .execute();
    expect(membership).toEqual([
      expect.objectContaining({
        tenant_id: t.tenantId,
        active: true,
        is_admin: false,
        scim_external_id: `ext-${email}`,
      }),
    ]);

    expect((await t.client.get(`/Users/${created.body.id}`)).body).toEqual(created.body);
    const listed = await t.client.get(`/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`);
    expect(listed.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(listed.body.Resources[0].id).toBe(created.body.id);
    const byExternalId = await t.client.get(`/Users?filter=${encodeURIComponent(`externalId eq "ext-${email}"`)}`);
    expect(byExternalId.body.totalResults).toBe(1);
    const none = await t.client.get(`/Users?filter=${encodeURIComponent('userName eq "nobody@nowhere.test"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  test('list pages with startIndex and count', async () => {
    const t = await provisionedTenant();
    for (const n of [1, 2, 3]) await t.client.post('/Users', entraUser(`p${n}@${t.domain}`));
    const page = await t.client.get('/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
  });

  test("an unsupported filter answers 400 invalidFilter in SCIM's error shape", async () => {
    const t = await provisionedTenant();
    const res = await t.client.get(`/Users?filter=${encodeURIComponent('title co "x"')}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidFilter',
      detail: expect.any(String),
    });
  });

  test('a taken userName or externalId answers 409 uniqueness; an unknown id 404', async () => {
    const t = await provisionedTenant();
    expect((await t.client.post('/Users', entraUser(`dup@${t.domain}`))).status).toBe(201);
    const again = await t.client.post('/Users', entraUser(`dup@${t.domain}`, 'other-ext'));
    expect(again.status).toBe(409);
    expect(again.body.scimType).toBe('uniqueness');
    expect((await t.client.post('/Users', entraUser(`dup2@${t.domain}`, `ext-dup@${t.domain}`))).status).toBe(409);
    expect((await t.client.post('/Users', entraUser(t.user.email))).status).toBe(409);
    expect((await t.client.get('/Users/999999999')).status).toBe(404);
    expect((await t.client.get('/Users/not-a-number')).body).toMatchObject({ status: '404' });
  });

  test('Entra ID PATCH: capitalised ops, string booleans, filtered paths and a path-less value object', async () => {
    const t = await provisionedTenant();
    const { body: user } = await t.client.post('/Users', entraUser(`patch@${t.domain}`));
    const res = await t.client.patch(`/Users/${user.id}`, [
      { op: 'Replace', path: 'displayName', value: 'Anna Berg' },
      { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+46 8 123 456' },
      { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Maths' },
      { op: 'Remove', path: 'title' },
      { op: 'replace', value: { externalId: 'new-ext', 'name.givenName': 'Anna' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      displayName: 'Anna Berg',
      externalId: 'new-ext',
      phoneNumbers: [{ value: '+46701234567' }, { value: '+468123456', type: 'other' }],
    });
    expect(res.body.title).toBeUndefined();
    const row = await ctx.services.db
      .selectFrom('users')
      .select(['name', 'title', 'phone_secondary'])
      .where('id', '=', Number(user.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Anna Berg', title: null, phone_secondary: '+468123456' });
  });

  test('PUT replaces the attributes', async () => {
    const t = await provisionedTenant();
    const { body: user } = await t.client.post('/Users', entraUser(`put@${t.domain}`));
    const res = await t.client.put(`/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `put@${t.domain}`,
      name: { givenName: 'Per', familyName: 'Persson' },
      active: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: 'Per Persson', active: true });
    expect(res.body.title).toBeUndefined();
    expect(res.body.externalId).toBeUndefined();
    expect(res.body.phoneNumbers).toBeUndefined();
  });
});

describe('SCIM deactivation and sign-in', () => {
  test('a provisioned user signs in; after active=false ("False") they cannot sign in and their sessions end; reactivated they can', async () => {
    const t = await provisionedTenant();
    const email = `lifecycle@${t.domain}`;
    const { body: user } = await t.client.post('/Users', entraUser(email));
    await ctx.services.db
      .updateTable('users')
      .set({ password_hash: await goodPasswordHash() })
      .where('id', '=', Number(user.id))
      .execute();

    const sso = await samlSignIn(email);
    expect(sso.status).toBe(200);
    expect((await tenantsAs(ctx, sso.accessToken!)).status).toBe(200);
    expect((await passwordLogin(email)).status).toBe(201);

    const off = await t.client.patch(`/Users/${user.id}`, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const ended = await tenantsAs(ctx, sso.accessToken!);
    expect(ended.status).toBe(401);
    expect(ended.body.error.code).toBe('INVALID_SESSION');
    expect((await passwordLogin(email)).body.error.code).toBe('INVALID_CREDENTIALS');
    // The grant answers as for anyone at the domain; the identity provider's answer is what is refused.
    expect(await samlSignIn(email)).toMatchObject({ status: 302, error: 'unauthorized_organization' });
    const probe = await request(ctx.app)
      .post(`/core/v1/probes/hash/${emailHash(email)}`)
      .set(v1)
      .send({ password: goodPassword });
    expect(probe.body.available).toBe(false);

    const on = await t.client.patch(`/Users/${user.id}`, [{ op: 'replace', value: { active: true } }]);
    expect(on.body.active).toBe(true);
    expect((await samlSignIn(email)).status).toBe(200);
  });

  test("a user of two tenants deactivated in one: no calls in that tenant, the other goes on, the profile is not the directory's to change", async () => {
    const a = await provisionedTenant();
    const b = await provisionedTenant();
    const { body: user } = await a.client.post('/Users', entraUser(`shared@${a.domain}`));
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: b.tenantId, user_id: Number(user.id), permissions: '{}' })
      .execute();
    const { accessToken } = await signIn(ctx.services, Number(user.id));

    const res = await a.client.patch(`/Users/${user.id}`, [
      { op: 'Replace', path: 'active', value: false },
      { op: 'Replace', path: 'displayName', value: 'Renamed by A' },
    ]);
    expect(res.body).toMatchObject({ active: false, displayName: 'Anna Andersson' });
    const inA = await request(ctx.app)
      .get(`/core/v1/users/${user.id}`)
      .set(v1)
      .set('cosafe-tenant-id', String(a.tenantId))
      .set('authorization', `Bearer ${accessToken}`);
    expect(inA.status).toBe(403);
    const inB = await request(ctx.app)
      .get(`/core/v1/users/${user.id}`)
      .set(v1)
      .set('cosafe-tenant-id', String(b.tenantId))
      .set('authorization', `Bearer ${accessToken}`);
    expect(inB.status).toBe(200);
  });

  test('DELETE removes the user from the tenant and ends their sessions; the address can be provisioned again', async () => {
    const t = await provisionedTenant();
    const { body: user } = await t.client.post('/Users', entraUser(`leaver@${t.domain}`));
    const { accessToken } = await signIn(ctx.services, Number(user.id));
    expect((await t.client.delete(`/Users/${user.id}`)).status).toBe(204);
    expect((await t.client.get(`/Users/${user.id}`)).status).toBe(404);
    expect((await tenantsAs(ctx, accessToken)).status).toBe(401);
    expect(
      await ctx.services.db
        .selectFrom('memberships')
        .select('tenant_id')
        .where('user_id', '=', Number(user.id))
        .execute(),
    ).toEqual([]);
    const again = await t.client.post('/Users', entraUser(`leaver@${t.domain}`));
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(user.id);
    expect((await samlSignIn(`leaver@${t.domain}`)).status).toBe(200);
  });
});

describe('SCIM tenant isolation', () => {
  test("another tenant's key neither sees nor changes nor deletes the user", async () => {
    const a = await provisionedTenant();
    const b = await provisionedTenant();
    const { body: user } = await a.client.post('/Users', entraUser(`private@${a.domain}`));
    expect((await b.client.get(`/Users/${user.id}`)).status).toBe(404);
    expect((await b.client.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'active', value: false }])).status).toBe(
      404,
    );
    expect((await b.client.put(`/Users/${user.id}`, { userName: `private@${a.domain}` })).status).toBe(404);
    expect((await b.client.delete(`/Users/${user.id}`)).status).toBe(404);
    const listed = await b.client.get(`/Users?filter=${encodeURIComponent(`userName eq "private@${a.domain}"`)}`);
    expect(listed.body.totalResults).toBe(0);
    expect((await b.client.get('/Users')).body.Resources.map((u: { userName: string }) => u.userName)).not.toContain(
      `private@${a.domain}`,
    );
    expect((await a.client.get(`/Users/${user.id}`)).body.active).toBe(true);
  });
});
