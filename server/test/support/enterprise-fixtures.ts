// Shared steps of the enterprise identity suites: a test app whose redirect allow-list holds the sign-in app's
// SSO page, tenants with SSO domains, PKCE pairs, and the session calls of an SSO sign-in.
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import type { SsoKind } from '../../src/db/column-types';
import { upsertSamlSettings, upsertSsoDomain } from '../../src/modules/sso/sso.repository';
import type { Services } from '../../src/services';
import { createTestContext, type TestContext, type TestContextOptions } from './context';
import { insertTenant, insertUser, signIn, v1 } from './fixtures';
import type { TestIdp } from './saml-idp';

export const ssoPage = 'http://127.0.0.1:5173/login/sso';

export function createSsoTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  return createTestContext({
    ...options,
    env: { REDIRECT_ALLOW_LIST: 'http://127.0.0.1:5173/login/sso', ...options.env },
  });
}

let counter = 0;
/** A tenant whose email domain signs in with `kind`, with one member (and an administrator). */
export async function ssoTenant(services: Services, kind: SsoKind) {
  const domain = `${kind}-${Date.now().toString(36)}${(counter++).toString(36)}.test`;
  const tenantId = await insertTenant(services);
  await upsertSsoDomain(services.db, { domain, tenantId, kind });
  const user = await insertUser(services, { email: `anna@${domain}`, tenants: [tenantId] });
  const admin = await insertUser(services, { email: `admin@${domain}`, tenants: [tenantId] });
  await services.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', admin.id).execute();
  return { domain, tenantId, user, admin, adminToken: (await signIn(services, admin.id)).accessToken };
}

/** An SSO tenant (as `ssoTenant`) that signs in with SAML at `idp`. */
export async function samlTenant(services: Services, idp: TestIdp) {
  const tenant = await ssoTenant(services, 'saml');
  await upsertSamlSettings(
    services.db,
    {
      tenantId: tenant.tenantId,
      entryPoint: idp.entryPoint,
      idpIssuer: idp.issuer,
      idpCertificates: [idp.certificate],
    },
    new Date(),
  );
  return tenant;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface SessionBody {
  id: string;
  accessToken: string;
  refreshToken: string;
  factors: Record<string, string>;
}

export async function ssoSession(ctx: TestContext, email: string): Promise<SessionBody> {
  const res = await request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'sso', email });
  if (res.status !== 201) throw new Error(`sso grant answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export const challenge = (ctx: TestContext, s: { id: string; accessToken: string }, body: object) =>
  request(ctx.app)
    .post(`/core/v1/sessions/${s.id}/challenges`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`)
    .send(body);

export const verify = (ctx: TestContext, s: { id: string; accessToken: string }, body: object) =>
  request(ctx.app)
    .patch(`/core/v1/sessions/${s.id}`)
    .set(v1)
    .set('authorization', `Bearer ${s.accessToken}`)
    .send(body);

export async function putOidcSettings(
  ctx: TestContext,
  tenant: { tenantId: number; adminToken: string },
  settings: Record<string, string>,
) {
  return request(ctx.app)
    .put('/core/v1/integrations/oidc')
    .set(v1)
    .set('cosafe-tenant-id', String(tenant.tenantId))
    .set('authorization', `Bearer ${tenant.adminToken}`)
    .send(settings);
}

export const tenantsAs = (ctx: TestContext, accessToken: string) =>
  request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${accessToken}`);
