// Frozen: never edit a migration that has shipped; add a new one.
// The organisation model: groups (owned by an account, shared with other tenants when crossOrg), their functions
// and members, meeting rooms, api keys (hashed) and contacts. Every tenant-owned row carries tenant_id.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Lets rows name an account together with its tenant, so a foreign key proves the account is the tenant's.
  await db.schema.alterTable('accounts').addUniqueConstraint('accounts_id_tenant_uq', ['id', 'tenant_id']).execute();
  // Tenant administrators (api keys, contacts, SSO settings, hidden groups): a role, not a feature flag.
  await db.schema
    .alterTable('memberships')
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('default')
        .check(sql`type in ('default', 'hidden', 'crossOrg', 'coAlert')`),
    )
    .addColumn('image_url', 'text')
    .addColumn('members_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint('groups_account_fk', ['account_id', 'tenant_id'], 'accounts', ['id', 'tenant_id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('groups_account_idx').on('groups').column('account_id').execute();
  await sql`create index groups_tenant_name_idx on groups (tenant_id, lower(name), id)`.execute(db);

  // The tenants that take part in a group: always the owner's, and for crossOrg groups the partner tenants too.
  await db.schema
    .createTable('group_tenants')
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('group_id', 'bigint', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('is_owner', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('group_tenants_pk', ['tenant_id', 'group_id'])
    .execute();
  await db.schema.createIndex('group_tenants_group_idx').on('group_tenants').column('group_id').execute();
  // Lists read a tenant's own groups from groups_tenant_name_idx and its few partner groups from here.
  await sql`create index group_tenants_partner_idx on group_tenants (tenant_id, group_id) where not is_owner`.execute(
    db,
  );
  await sql`
    create function groups_add_owner_tenant() returns trigger language plpgsql as $$
    begin
      insert into group_tenants (tenant_id, group_id, is_owner) values (new.tenant_id, new.id, true) on conflict do nothing;
      return new;
    end $$`.execute(db);
  await sql`create trigger groups_owner_tenant after insert on groups for each row execute function groups_add_owner_tenant()`.execute(
    db,
  );

  await db.schema
    .createTable('group_functions')
    .addColumn('group_id', 'bigint', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('function', 'text', (c) =>
      c.notNull().check(sql`function in ('checklists', 'documents', 'panic_button', 'lone_worker_timer', 'im_ok')`),
    )
    .addPrimaryKeyConstraint('group_functions_pk', ['group_id', 'function'])
    .execute();

  // A member belongs to the group through one of its tenants (the user must be a member of that tenant).
  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .addForeignKeyConstraint(
      'group_members_tenant_fk',
      ['tenant_id', 'group_id'],
      'group_tenants',
      ['tenant_id', 'group_id'],
      (c) => c.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'group_members_membership_fk',
      ['tenant_id', 'user_id'],
      'memberships',
      ['tenant_id', 'user_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('group_members_user_idx')
    .on('group_members')
    .columns(['user_id', 'tenant_id', 'group_id'])
    .execute();
  // membersCount is read and filtered on every list; keep it as a column instead of counting per request.
  await sql`
    create function group_members_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update groups set members_count = members_count + 1 where id = new.group_id;
        return new;
      end if;
      update groups set members_count = members_count - 1 where id = old.group_id;
      return old;
    end $$`.execute(db);
  await sql`create trigger group_members_count after insert or delete on group_members for each row execute function group_members_count()`.execute(
    db,
  );

  await db.schema
    .createTable('meeting_rooms')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index meeting_rooms_tenant_name_idx on meeting_rooms (tenant_id, lower(name), id)`.execute(db);

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) =>
      c
        .notNull()
        .defaultTo('scim')
        .check(sql`scope = 'scim'`),
    )
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await sql`create index api_keys_tenant_created_idx on api_keys (tenant_id, created_at desc, id)`.execute(db);

  await db.schema
    .createTable('contacts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('UserSupport', 'DataProtectionOfficer')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint('contacts_account_fk', ['account_id', 'tenant_id'], 'accounts', ['id', 'tenant_id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();
  await sql`create index contacts_tenant_name_idx on contacts (tenant_id, lower(name), id)`.execute(db);
  await db.schema.createIndex('contacts_account_idx').on('contacts').column('account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'contacts',
    'api_keys',
    'meeting_rooms',
    'group_members',
    'group_functions',
    'group_tenants',
    'groups',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`drop function if exists group_members_count()`.execute(db);
  await sql`drop function if exists groups_add_owner_tenant()`.execute(db);
  await db.schema.alterTable('memberships').dropColumn('is_admin').execute();
  await db.schema.alterTable('accounts').dropConstraint('accounts_id_tenant_uq').execute();
}
