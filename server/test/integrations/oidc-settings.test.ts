import request from 'supertest';
import { decryptSecret } from '../../src/modules/integrations/secret-box';
import type { TestContext } from '../support/context';
import { signIn, v1 } from '../support/fixtures';
import { createSsoTestContext, putOidcSettings, ssoTenant } from '../support/enterprise-fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext();
});
afterAll(() => ctx.close());

const settings = {
  clientId: 'core-api-demo',
  clientSecret: 's3cr3t-Xb9kQ2mV7pL4zR8t-never-shown',
  authorizationEndpoint: 'https://idp.demo.test/oauth2/authorize',
  tokenEndpoint: 'https://idp.demo.test/oauth2/token',
  jwksUri: 'https://idp.demo.test/oauth2/keys',
  issuer: 'https://idp.demo.test',
};

const getSettings = (tenantId: number, token: string) =>
  request(ctx.app)
    .get('/core/v1/integrations/oidc')
    .set(v1)
    .set('cosafe-tenant-id', String(tenantId))
    .set('authorization', `Bearer ${token}`);

describe('PUT and GET /core/v1/integrations/oidc', () => {
  test('stores the settings, answers them without the secret, with createdAt and updatedAt', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const put = await putOidcSettings(ctx, tenant, settings);
    expect(put.status).toBe(200);
    const { clientSecret: _, ...visible } = settings;
    expect(put.body).toEqual({ ...visible, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const got = await getSettings(tenant.tenantId, tenant.adminToken);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    expect(JSON.stringify(got.body)).not.toContain(settings.clientSecret);
  });

  test('the client secret is encrypted at rest (AES-GCM bound to the tenant) and never logged', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    await putOidcSettings(ctx, tenant, settings);
    const row = await ctx.services.db
      .selectFrom('oidc_settings')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_encrypted).not.toContain(settings.clientSecret);
    expect(row.client_secret_encrypted).toMatch(/^v1\./);
    expect(
      decryptSecret(ctx.services.secretKey, 'oidc-client-secret', String(tenant.tenantId), row.client_secret_encrypted),
    ).toBe(settings.clientSecret);
    expect(() =>
      decryptSecret(
        ctx.services.secretKey,
        'oidc-client-secret',
        String(tenant.tenantId + 1),
        row.client_secret_encrypted,
      ),
    ).toThrow();
    expect(ctx.logs.join('\n')).not.toContain(settings.clientSecret);
  });

  test('replacing keeps createdAt and moves updatedAt', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const first = await putOidcSettings(ctx, tenant, settings);
    await new Promise((r) => setTimeout(r, 5));
    const second = await putOidcSettings(ctx, tenant, { ...settings, clientId: 'another-client' });
    expect(second.body.clientId).toBe('another-client');
    expect(second.body.createdAt).toBe(first.body.createdAt);
    expect(new Date(second.body.updatedAt).getTime()).toBeGreaterThan(new Date(first.body.updatedAt).getTime());
  });

  test.each([
    ['an empty clientId', { clientId: '' }],
    ['a blank clientSecret', { clientSecret: '   ' }],
    ['a token endpoint that is not a URL', { tokenEndpoint: 'not a url' }],
    ['an issuer with another scheme', { issuer: 'ftp://idp.demo.test' }],
    ['a missing jwksUri', { jwksUri: undefined }],
  ])('%s answers 400 BAD_REQUEST', async (_what, change) => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const res = await putOidcSettings(ctx, tenant, { ...settings, ...change } as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.issues.length).toBeGreaterThan(0);
  });

  test('a tenant without settings answers 404 NOT_FOUND', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    expect((await getSettings(tenant.tenantId, tenant.adminToken)).status).toBe(404);
  });

  test('members who are not administrators answer 403 FORBIDDEN, for read and write', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const { accessToken } = await signIn(ctx.services, tenant.user.id);
    expect((await getSettings(tenant.tenantId, accessToken)).status).toBe(403);
    const put = await putOidcSettings(ctx, { tenantId: tenant.tenantId, adminToken: accessToken }, settings);
    expect(put.status).toBe(403);
    expect(
      await ctx.services.db
        .selectFrom('oidc_settings')
        .select('tenant_id')
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  test("tenant isolation: another tenant's administrator can neither read nor change the settings", async () => {
    const mine = await ssoTenant(ctx.services, 'oidc');
    const theirs = await ssoTenant(ctx.services, 'oidc');
    await putOidcSettings(ctx, mine, settings);
    expect((await getSettings(mine.tenantId, theirs.adminToken)).status).toBe(403);
    expect(
      (
        await putOidcSettings(
          ctx,
          { tenantId: mine.tenantId, adminToken: theirs.adminToken },
          { ...settings, clientId: 'hijack' },
        )
      ).status,
    ).toBe(403);
    expect((await getSettings(theirs.tenantId, theirs.adminToken)).status).toBe(404);
    expect((await getSettings(mine.tenantId, mine.adminToken)).body.clientId).toBe(settings.clientId);
  });

  test('without sign-in answers 401', async () => {
    const res = await request(ctx.app).get('/core/v1/integrations/oidc').set(v1).set('cosafe-tenant-id', '1');
    expect(res.status).toBe(401);
  });
});
