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

export const devSsoDomain = 'sso.demo.test';
export const devSsoUser = { email: 'sso-user@sso.demo.test', name: 'Sam Single-Sign-On', title: 'Teacher' };
export const devSsoTenant = { name: 'Demo SSO Company', website: 'https://sso.demo.test' };

/** Answers the demo SSO tenant's id, or null when no development identity provider is configured. */
export async function seedDevSso(services: Services): Promise<number | null> {
  const { db, config } = services;
  const idp = config.mode === 'production' ? null : config.sso.devIdp;
  if (!idp) return null;

  let tenant = await db
    .selectFrom('tenants')
    .select('id')
    .where('website_url', '=', devSsoTenant.website)
    .executeTakeFirst();
  if (!tenant) {
    tenant = await db
      .insertInto('tenants')
      .values({
        name: devSsoTenant.name,
        logo_url: `${devSsoTenant.website}/logo.png`,
        website_url: devSsoTenant.website,
        may_any_user_activate_im_ok: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('accounts')
      .values({ tenant_id: tenant.id, name: `${devSsoTenant.name} HQ` })
      .execute();
  }
  const tenantId = tenant.id;
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
  let user = await db.selectFrom('users').select('id').where('email_hash', '=', hash).executeTakeFirst();
  if (!user) {
    user = await db
      .insertInto('users')
      .values({
        name: devSsoUser.name,
        title: devSsoUser.title,
        email: devSsoUser.email,
        email_hash: hash,
        password_hash: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('user_settings')
      .values({ user_id: user.id, ...defaultUserSettings })
      .execute();
  }
  await db
    .insertInto('memberships')
    .values({
      tenant_id: tenantId,
      user_id: user.id,
      permissions: JSON.stringify(buildPermissions(true)),
      is_admin: true,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .execute();
  return tenantId;
}
