// Frozen: never edit a migration that has shipped; add a new one.
// Every change of a personal alarm is recorded (who, when, what: each changed field from → to), and a change by
// someone other than the owner sends the owner a notice: a personal_alarm_messages row of kind 'changed' that
// belongs to one recorded change (the once-per-version rule stays for the warning and the alarm itself).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_alarm_changes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alarm_id', 'bigint', (c) => c.notNull().references('personal_alarms.id').onDelete('cascade'))
    // Null once the person who made the change is deleted; the record of the change stays.
    .addColumn('actor_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) =>
      c.notNull().check(sql`action in ('create', 'update', 'activate', 'deactivate')`),
    )
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index personal_alarm_changes_alarm_idx on personal_alarm_changes (alarm_id, id)`.execute(db);

  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_kind_check`.execute(db);
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_kind_check check (kind in ('warning', 'alarm', 'changed'))`.execute(
    db,
  );
  await sql`alter table personal_alarm_messages add column change_id bigint references personal_alarm_changes (id) on delete cascade`.execute(
    db,
  );
  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_once_uq`.execute(db);
  await sql`create unique index personal_alarm_messages_once_uq on personal_alarm_messages (alarm_id, kind, version) where change_id is null`.execute(
    db,
  );
  await sql`create unique index personal_alarm_messages_change_uq on personal_alarm_messages (change_id) where change_id is not null`.execute(
    db,
  );
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_change_check check ((kind = 'changed') = (change_id is not null))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from dispatches where source = 'alarm' and message_id in (select id from personal_alarm_messages where kind = 'changed')`.execute(
    db,
  );
  await sql`delete from personal_alarm_messages where kind = 'changed'`.execute(db);
  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_change_check`.execute(db);
  await sql`drop index personal_alarm_messages_change_uq`.execute(db);
  await sql`drop index personal_alarm_messages_once_uq`.execute(db);
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_once_uq unique (alarm_id, kind, version)`.execute(
    db,
  );
  await sql`alter table personal_alarm_messages drop column change_id`.execute(db);
  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_kind_check`.execute(db);
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_kind_check check (kind in ('warning', 'alarm'))`.execute(
    db,
  );
  await sql`delete from jobs where kind = 'alarm.changed'`.execute(db);
  await db.schema.dropTable('personal_alarm_changes').execute();
}
