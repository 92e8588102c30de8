// The statements of the operator tool (`npm run admin`): tenants and what a tenant's single sign-on is set to.
import type { Db } from '../db/database';

export async function findTenantName(db: Db, tenantId: number): Promise<string | null> {
  const tenant = await db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirst();
  return tenant?.name ?? null;
}

/** A tenant and its first account, in one transaction; answers the tenant's id. */
export async function insertTenantWithAccount(
  db: Db,
  tenant: { name: string; websiteUrl: string; logoUrl: string },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('tenants')
      .values({ name: tenant.name, website_url: tenant.websiteUrl, logo_url: tenant.logoUrl })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('accounts').values({ tenant_id: created.id, name: tenant.name }).execute();
    return created.id;
  });
}

/** Every tenant with its number of members, by id. */
export async function selectTenantsWithMemberCounts(db: Db) {
  return db
    .selectFrom('tenants as t')
    .leftJoin('memberships as m', 'm.tenant_id', 't.id')
    .select(['t.id', 't.name', 't.website_url', (eb) => eb.fn.count<string>('m.user_id').as('members')])
    .groupBy(['t.id', 't.name', 't.website_url'])
    .orderBy('t.id')
    .execute();
}

/** A tenant's single sign-on: its domains (by name), OIDC client and SAML provider, as three reads. */
export async function selectSsoSettings(db: Db, tenantId: number) {
  const domains = await db
    .selectFrom('sso_domains')
    .select(['domain', 'kind'])
    .where('tenant_id', '=', tenantId)
    .orderBy('domain')
    .execute();
  const oidc = await db
    .selectFrom('oidc_settings')
    .select(['issuer', 'client_id'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  const saml = await db
    .selectFrom('saml_settings')
    .select(['entry_point', 'idp_certificates'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return { domains, oidc, saml };
}
