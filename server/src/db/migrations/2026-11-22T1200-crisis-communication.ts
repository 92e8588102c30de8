// Frozen: never edit a migration that has shipped; add a new one.
// Crisis communication: the durable job queue, external communication (groups of people outside the
// organisation, templates, sender settings, messages, their recipients) and personal alarms (lone-worker timers),
// with one dispatches table for every message that leaves the system by a channel.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<any>): Promise<void> {
  // Claimed with FOR UPDATE SKIP LOCKED; a claim holds a lease (locked_until) and a claim token (locked_by), so a
  // crashed worker's job is claimed again after the lease and the old worker can no longer complete it.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'done', 'failed', 'cancelled')`),
    )
    .addColumn('run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index jobs_due_idx on jobs (run_at, id) where status = 'pending'`.execute(db);

  // External communication. A contact is one person outside the organisation; groups list contacts, so a person
  // in several groups is one recipient of a message sent to those groups.
  await db.schema
    .createTable('cec_contacts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('cec_contacts_id_tenant_uq', ['id', 'tenant_id'])
    .addCheckConstraint('cec_contacts_reachable', sql`email is not null or phone is not null`)
    .execute();

  await db.schema
    .createTable('cec_groups')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('cec_groups_id_tenant_uq', ['id', 'tenant_id'])
    .execute();
  await sql`create index cec_groups_tenant_name_idx on cec_groups (tenant_id, lower(name), id)`.execute(db);

  // The composite foreign keys prove that a group and its contacts belong to the same tenant.
  await db.schema
    .createTable('cec_group_members')
    .addColumn('group_id', 'bigint', (c) => c.notNull())
    .addColumn('contact_id', 'bigint', (c) => c.notNull())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('cec_group_members_pk', ['group_id', 'contact_id'])
    .addForeignKeyConstraint(
      'cec_group_members_group_fk',
      ['group_id', 'tenant_id'],
      'cec_groups',
      ['id', 'tenant_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'cec_group_members_contact_fk',
      ['contact_id', 'tenant_id'],
      'cec_contacts',
      ['id', 'tenant_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('cec_group_members_contact_idx').on('cec_group_members').column('contact_id').execute();

  await db.schema
    .createTable('cec_templates')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index cec_templates_tenant_name_idx on cec_templates (tenant_id, lower(name), id)`.execute(db);

  // Without a row here the tenant cannot send (CEC_TENANT_CONFIGURATION_INCOMPLETE).
  await db.schema
    .createTable('cec_sender_settings')
    .addColumn('tenant_id', 'bigint', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('email_sender_name', 'text', (c) => c.notNull())
    .addColumn('sms_sender_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('cec_messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('sender_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_email', 'boolean', (c) => c.notNull())
    .addColumn('is_sms', 'boolean', (c) => c.notNull())
    .addColumn('has_voice_call', 'boolean', (c) => c.notNull())
    .addColumn('has_confirmation_link', 'boolean', (c) => c.notNull())
    // The sender settings as they were when the message was sent, so every dispatch of it reads the same.
    .addColumn('email_sender_name', 'text', (c) => c.notNull())
    .addColumn('sms_sender_id', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    // Set when the groups have been expanded into recipients and dispatches (exactly once, by the delivery job).
    .addColumn('recipients_resolved_at', 'timestamptz')
    .execute();
  await sql`create index cec_messages_tenant_sent_idx on cec_messages (tenant_id, sent_at desc, id desc)`.execute(db);

  // The groups as they were named when sent; a group deleted later still shows on its old messages.
  await db.schema
    .createTable('cec_message_groups')
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('cec_messages.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.notNull())
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cec_message_groups_pk', ['message_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('cec_message_groups_group_idx')
    .on('cec_message_groups')
    .columns(['group_id', 'message_id'])
    .execute();

  // One row per person the message went to (a snapshot of the contact), whatever the number of groups.
  await db.schema
    .createTable('cec_message_recipients')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('cec_messages.id').onDelete('cascade'))
    .addColumn('contact_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('group_ids', sql`bigint[]`, (c) => c.notNull())
    .addUniqueConstraint('cec_message_recipients_contact_uq', ['message_id', 'contact_id'])
    .execute();
  await sql`create index cec_message_recipients_name_idx on cec_message_recipients (message_id, lower(name), id)`.execute(
    db,
  );

  // Personal alarms (lone-worker timers). `version` changes whenever the timer is (re)armed, moved or stopped:
  // scheduled jobs carry the version they were made for and do nothing when it has moved on.
  await db.schema
    .createTable('personal_alarm_locations')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('latitude', 'double precision', (c) => c.notNull().check(sql`latitude >= 0 and latitude <= 90`))
    .addColumn('longitude', 'double precision', (c) => c.notNull().check(sql`longitude >= 0 and longitude <= 180`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('personal_alarms')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('dispatch_at', 'timestamptz', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('one_minute_warning', 'boolean', (c) => c.notNull())
    .addColumn('location_id', 'bigint', (c) => c.references('personal_alarm_locations.id').onDelete('set null'))
    .addColumn('message_id', 'bigint')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index personal_alarms_tenant_created_idx on personal_alarms (tenant_id, created_at desc, id desc)`.execute(
    db,
  );
  // A device runs one timer at a time; the database enforces it, so two racing requests cannot both win.
  await sql`create unique index personal_alarms_active_device_uq on personal_alarms (user_id, device_id) where active`.execute(
    db,
  );

  await db.schema
    .createTable('personal_alarm_recipient_users')
    .addColumn('alarm_id', 'bigint', (c) => c.notNull().references('personal_alarms.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('personal_alarm_recipient_users_pk', ['alarm_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('personal_alarm_recipient_groups')
    .addColumn('alarm_id', 'bigint', (c) => c.notNull().references('personal_alarms.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('personal_alarm_recipient_groups_pk', ['alarm_id', 'group_id'])
    .execute();

  // What an alarm sent: the one-minute warning to its owner and the alarm itself, at most once per armed version.
  await db.schema
    .createTable('personal_alarm_messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('alarm_id', 'bigint', (c) => c.notNull().references('personal_alarms.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('warning', 'alarm')`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('personal_alarm_messages_once_uq', ['alarm_id', 'kind', 'version'])
    .execute();

  // Every delivery of a message by one channel to one address. The status is written before (sending, with a
  // lease) and after (sent / queued again / failed) the channel call, so a delivery already sent is never repeated.
  await db.schema
    .createTable('dispatches')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('cec', 'alarm')`))
    .addColumn('message_id', 'bigint', (c) => c.notNull())
    .addColumn('recipient_id', 'bigint', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms', 'voice', 'push')`))
    .addColumn('sent_to', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'sending', 'sent', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    // The job claim sending it: a row still 'sending' under an older claim was abandoned by a stopped worker.
    .addColumn('locked_by', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('read_at', 'timestamptz')
    .addColumn('confirmation_hash', 'text', (c) => c.unique())
    .addUniqueConstraint('dispatches_once_uq', ['source', 'message_id', 'channel', 'sent_to'])
    .execute();
  await db.schema
    .createIndex('dispatches_work_idx')
    .on('dispatches')
    .columns(['source', 'message_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('dispatches_recipient_idx')
    .on('dispatches')
    .columns(['source', 'message_id', 'recipient_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'dispatches',
    'personal_alarm_messages',
    'personal_alarm_recipient_groups',
    'personal_alarm_recipient_users',
    'personal_alarms',
    'personal_alarm_locations',
    'cec_message_recipients',
    'cec_message_groups',
    'cec_messages',
    'cec_sender_settings',
    'cec_templates',
    'cec_group_members',
    'cec_groups',
    'cec_contacts',
    'jobs',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
