// Development single sign-on (never in production: config.sso.devIdp is null there). When DEV_SSO_ISSUER names
// the development identity provider (scripts/dev-idp.mjs, started by `npm start`), the domain sso.demo.test signs
// in with OIDC at a demo tenant whose OIDC client points at that provider, and sso-user@sso.demo.test is its
// member (no password: this account signs in only with SSO). Idempotent, and run on every development start, so
// an existing data directory picks up a changed issuer, client id or secret.
import { saveOidcSettings } from '../modules/integrations';
import { routeSsoDomain } from '../modules/sso';
import { buildPermissions, defaultUserSettings } from '../modules/users';
import { emailHash } from '../security/hashing';
import type { Services } from '../services';
import {
  ensureMembership,
  findTenantByWebsite,
  findUserByEmailHash,
  insertTenantWithAccount,
  insertUser,
  insertUserSettings,
} from './seed.repository';

export const devSsoDomain = 'sso.demo.test';
export const devSsoUser = { email: 'sso-user@sso.demo.test', name: 'Sam Single-Sign-On', title: 'Teacher' };
export const devSsoTenant = { name: 'Demo SSO Company', website: 'https://sso.demo.test' };

/** Answers the demo SSO tenant's id, or null when no development identity provider is configured. */
export async function seedDevSso(services: Services): Promise<number | null> {
  const { db, config } = services;
  const idp = config.mode === 'production' ? null : config.sso.devIdp;
  if (!idp) return null;

  const tenantId =
    (await findTenantByWebsite(db, devSsoTenant.website))?.id ?? (await insertTenantWithAccount(db, devSsoTenant));
  await routeSsoDomain(db, { domain: devSsoDomain, tenantId, kind: 'oidc' });
  await saveOidcSettings(services, tenantId, {
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    issuer: idp.issuer,
    // oidc-provider's default routes.
    authorizationEndpoint: `${idp.issuer}/auth`,
    tokenEndpoint: `${idp.issuer}/token`,
    jwksUri: `${idp.issuer}/jwks`,
  });

  const hash = emailHash(devSsoUser.email);
  let userId = (await findUserByEmailHash(db, hash))?.id;
  if (userId === undefined) {
    userId = await insertUser(db, {
      name: devSsoUser.name,
      title: devSsoUser.title,
      email: devSsoUser.email,
      email_hash: hash,
      password_hash: null,
    });
    await insertUserSettings(db, { user_id: userId, ...defaultUserSettings });
  }
  await ensureMembership(db, {
    tenant_id: tenantId,
    user_id: userId,
    permissions: JSON.stringify(buildPermissions(true)),
    is_admin: true,
  });
  return tenantId;
}
