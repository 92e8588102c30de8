// Frozen: never edit a migration that has shipped; add a new one.
// Enterprise identity: single sign-on by email domain (OIDC, SAML, Skolon), the tenant's OIDC client with its
// secret encrypted at rest, SSO challenges (state, nonce, PKCE, SAML request ids, one-time codes), SAML replay
// protection, and SCIM provisioning state (external ids, deactivation, provisioned groups).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // A domain signs in with one protocol at one tenant; domains are registered by operators after proving
  // ownership (a tenant must never claim gmail.com), so there is no API that writes this table.
  await db.schema
    .createTable('sso_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey().check(sql`domain = lower(domain)`))
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('oidc', 'saml', 'skolon')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sso_domains_tenant_idx').on('sso_domains').column('tenant_id').execute();

  await db.schema
    .createTable('oidc_settings')
    .addColumn('tenant_id', 'bigint', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    // AES-256-GCM under a key derived from the region's secret key, bound to the tenant id.
    .addColumn('client_secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('authorization_endpoint', 'text', (c) => c.notNull())
    .addColumn('token_endpoint', 'text', (c) => c.notNull())
    .addColumn('jwks_uri', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('saml_settings')
    .addColumn('tenant_id', 'bigint', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('entry_point', 'text', (c) => c.notNull())
    .addColumn('idp_issuer', 'text')
    // One or more PEM certificates of the identity provider (several during a certificate rollover).
    .addColumn('idp_certificates', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sso_challenges')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('oidc', 'saml', 'skolon')`))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('state', 'text')
    .addColumn('nonce', 'text')
    .addColumn('code_challenge', 'text')
    .addColumn('saml_request_id', 'text', (c) => c.unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // SAML: when the assertion consumer service accepted the response, for whom, and the one-time code it gave.
    .addColumn('answered_at', 'timestamptz')
    .addColumn('asserted_user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.unique())
    .addColumn('code_expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sso_challenges_session_idx')
    .on('sso_challenges')
    .columns(['session_id', 'kind'])
    .execute();

  // Every accepted SAML assertion id, until it could no longer be valid anyway.
  await db.schema
    .createTable('saml_assertions')
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['tenant_id', 'assertion_id'])
    .execute();

  // SCIM: a membership can be deactivated by the tenant's directory and carries the directory's external id.
  await db.schema
    .alterTable('memberships')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.alterTable('memberships').addColumn('scim_external_id', 'text').execute();
  await sql`create unique index memberships_scim_external_id_uq on memberships (tenant_id, scim_external_id) where scim_external_id is not null`.execute(
    db,
  );
  // Set while a user has memberships and every one of them is deactivated: such a user cannot sign in.
  await db.schema.alterTable('users').addColumn('deactivated_at', 'timestamptz').execute();

  // Groups created by a tenant's directory (SCIM sees and changes only these, never hand-made groups).
  await db.schema
    .createTable('scim_groups')
    .addColumn('group_id', 'bigint', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index scim_groups_external_id_uq on scim_groups (tenant_id, external_id) where external_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('scim_groups_tenant_idx').on('scim_groups').columns(['tenant_id', 'group_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'scim_groups',
    'saml_assertions',
    'sso_challenges',
    'saml_settings',
    'oidc_settings',
    'sso_domains',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('users').dropColumn('deactivated_at').execute();
  await sql`drop index if exists memberships_scim_external_id_uq`.execute(db);
  await db.schema.alterTable('memberships').dropColumn('scim_external_id').execute();
  await db.schema.alterTable('memberships').dropColumn('active').execute();
}
