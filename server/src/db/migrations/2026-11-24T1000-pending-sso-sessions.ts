// Frozen: never edit a migration that has shipped; add a new one.
// A single sign-on session belongs to no user until the identity provider answers: the `sso` grant opens it for
// the tenant that owns the email's domain (sso_tenant_id) without asking whether the email is a member's, so
// members and non-members get the same answer; verifying the factor binds it to the user the provider asserted.
// Every session belongs to a user or waits for a tenant's identity provider. Sessions pending when this runs (at
// most 15 minutes old) get the tenant of their user's domain, so their sign-ins go on.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions alter column user_id drop not null,
    add column sso_tenant_id bigint references tenants (id) on delete cascade`.execute(db);
  await sql`update sessions s set sso_tenant_id = d.tenant_id
    from users u, sso_domains d
    where u.id = s.user_id and s.revoked_at is null
      and d.domain = substring(lower(u.email) from '@([^@]*)$')
      and exists (select 1 from jsonb_each_text(s.factors) f where f.key = d.kind and f.value = 'unverified')`.execute(
    db,
  );
  await sql`alter table sessions add constraint sessions_user_or_sso_tenant check (user_id is not null or sso_tenant_id is not null)`.execute(
    db,
  );
  // A tenant's deletion finds its sessions by index.
  await sql`create index sessions_sso_tenant_idx on sessions (sso_tenant_id) where sso_tenant_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  // Sign-ins still waiting for their identity provider cannot be kept without a user: they start again.
  await sql`delete from sessions where user_id is null`.execute(db);
  await sql`drop index sessions_sso_tenant_idx`.execute(db);
  await sql`alter table sessions drop constraint sessions_user_or_sso_tenant, drop column sso_tenant_id,
    alter column user_id set not null`.execute(db);
}
