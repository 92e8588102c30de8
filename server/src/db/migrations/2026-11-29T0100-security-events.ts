// Frozen: never edit a migration that has shipped; add a new one.
// The security events of accounts and tenants (modules/security-events): sign-ins, failures, lockouts, second
// factors, passkeys, passwords, sessions ended, permissions and a directory's or the operator tool's changes to
// members. Each is written in the transaction (or the statement) of what it records. An event of the account itself
// has no tenant: every tenant the user belongs to sees it; an event in a tenant (a permission, a directory's change)
// is that tenant's only. The client is coarse: a network (IPv4 /24, IPv6 /48) and a user agent cut short; never a
// secret. Removed by housekeeping after the retention (SECURITY_EVENT_RETENTION_DAYS).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'bigint', (c) => c.references('tenants.id').onDelete('cascade'))
    // The account the event is about; null once it is deleted (the tenant's events about it stay theirs).
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('network', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addCheckConstraint('security_events_user_agent_short', sql`char_length(user_agent) <= 256`)
    .addCheckConstraint('security_events_network_short', sql`char_length(network) <= 64`)
    .execute();
  // A tenant's own events, newest first; an account's events (for its tenants' administrators and for itself).
  await sql`create index security_events_tenant_idx on security_events (tenant_id, id desc) where tenant_id is not null`.execute(
    db,
  );
  await sql`create index security_events_user_idx on security_events (user_id, id desc)`.execute(db);
  // Housekeeping removes by age.
  await sql`create index security_events_at_idx on security_events (at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('security_events').execute();
}
