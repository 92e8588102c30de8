// Frozen: never edit a migration that has shipped; add a new one.
// A tenant's administrators are told of unusual volume (notify/unusual-volume.ts): alarms raised and external
// messages sent are counted per tenant and hour; an hour well above the tenant's usual rate makes one notice (a row,
// the record an administrator or the operator reads) and one email to each of its administrators, at most one per
// tenant, kind and hour.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenant_volume')
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('alarms', 'messages')`))
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_volume_pk', ['tenant_id', 'kind', 'hour'])
    .execute();
  await db.schema
    .createTable('tenant_volume_notices')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('alarms', 'messages')`))
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    // The count that crossed the line, and the tenant's usual count an hour (over the week before) it was held to.
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('usual', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // When its email went to the administrators (null: not yet, or none to tell).
    .addColumn('sent_at', 'timestamptz')
    .addColumn('administrators', 'integer')
    .addUniqueConstraint('tenant_volume_notices_once_uq', ['tenant_id', 'kind', 'hour'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from jobs where kind = 'volume.notice'`.execute(db);
  await db.schema.dropTable('tenant_volume_notices').execute();
  await db.schema.dropTable('tenant_volume').execute();
}
