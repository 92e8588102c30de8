// Frozen: never edit a migration that has shipped; add a new one.
// A tenant administrator (through the API) or the operator (through the operator tool) lifts the tenant's ceiling
// of external messages for the next hour (security/sending-quotas.ts). Each lift is a row, kept as its record: who,
// why, when, until when.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cec_ceiling_lifts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    // Null when the operator tool lifted it, or once the administrator is deleted (lifted_by keeps who it was).
    .addColumn('lifted_by_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('lifted_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lifted_until', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index cec_ceiling_lifts_tenant_idx on cec_ceiling_lifts (tenant_id, lifted_until desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cec_ceiling_lifts').execute();
}
