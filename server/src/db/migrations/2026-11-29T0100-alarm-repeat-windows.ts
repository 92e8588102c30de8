// Frozen: never edit a migration that has shipped; add a new one.
// Repeats of an alarm collapse in the fan-out (modules/personal-alarms/personal-alarms.repeats.ts): alarms of one
// owner to the same recipients (the same recipient users and groups) within a short window after one was delivered
// are each recorded as a message of their own without dispatches, counted in the window, and one summary message
// (kind 'repeats', saying how many and since when) goes to those recipients when the window ends. A window row per
// owner and recipients holds when the window ends, its generation (the repeats one summary stands for) and how many
// repeats wait for it; its summary is a durable job enqueued with the first repeat.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_alarm_repeat_windows')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A digest of the alarm's recipient users and groups: alarms with the same digest go to the same recipients.
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    // Until when an alarm to these recipients is a repeat (the last delivery, alarm or summary, plus the window).
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    // Repeats of this generation waiting for their summary.
    .addColumn('repeats', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('personal_alarm_repeat_windows_uq', ['tenant_id', 'owner_id', 'recipients'])
    .execute();

  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_kind_check`.execute(db);
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_kind_check check (kind in ('warning', 'alarm', 'changed', 'repeats'))`.execute(
    db,
  );
  // A collapsed alarm's message and a summary name their window and generation; a summary says how many alarms it
  // stands for and since when.
  await sql`alter table personal_alarm_messages add column repeat_window_id bigint references personal_alarm_repeat_windows (id) on delete set null`.execute(
    db,
  );
  await sql`alter table personal_alarm_messages add column repeat_generation integer`.execute(db);
  await sql`alter table personal_alarm_messages add column repeats integer`.execute(db);
  await sql`alter table personal_alarm_messages add column repeats_since timestamptz`.execute(db);
  await sql`create index personal_alarm_messages_repeat_idx on personal_alarm_messages (repeat_window_id, repeat_generation) where repeat_window_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from dispatches where source = 'alarm' and message_id in (select id from personal_alarm_messages where kind = 'repeats')`.execute(
    db,
  );
  await sql`delete from personal_alarm_messages where kind = 'repeats'`.execute(db);
  await sql`drop index personal_alarm_messages_repeat_idx`.execute(db);
  for (const column of ['repeats_since', 'repeats', 'repeat_generation', 'repeat_window_id'])
    await sql`alter table personal_alarm_messages drop column ${sql.raw(column)}`.execute(db);
  await sql`alter table personal_alarm_messages drop constraint personal_alarm_messages_kind_check`.execute(db);
  await sql`alter table personal_alarm_messages add constraint personal_alarm_messages_kind_check check (kind in ('warning', 'alarm', 'changed'))`.execute(
    db,
  );
  await sql`delete from jobs where kind = 'alarm.repeats'`.execute(db);
  await db.schema.dropTable('personal_alarm_repeat_windows').execute();
}
