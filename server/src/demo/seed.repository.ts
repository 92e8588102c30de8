// SQL of the demo data (seed*.ts): the seeds say what the demo contains, these functions write and find it.
// Functions that run inside a seed's transaction take it as `db`.
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../db/database';
import type { GroupFunction } from '../db/column-types';
import type { DB as Database } from '../db/types';

type Row<T extends keyof Database> = Insertable<Database[T]>;

// ---- Tenants and accounts

/**
 * Demo tenants' websites and demo accounts' emails are all on demo.test (or a subdomain of it). The backslashes are
 * doubled: a template literal would turn `\.` into `.`, and the pattern's dots would match any character.
 */
const demoDomain = (column: string) =>
  sql<boolean>`(${sql.ref(column)} ~* '^(https://|[^@]*@)([a-z0-9-]+\\.)*demo\\.test(/|$)')`;

/** How many tenants and users the database holds that are not the demo data's (two statements, side by side). */
export async function countNonDemoData(db: Executor): Promise<{ tenants: number; users: number }> {
  const [tenants, users] = await Promise.all([
    db
      .selectFrom('tenants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(sql<boolean>`not ${demoDomain('website_url')}`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(sql<boolean>`not ${demoDomain('email')}`)
      .executeTakeFirstOrThrow(),
  ]);
  return { tenants: Number(tenants.n), users: Number(users.n) };
}

/** Whether the database holds any tenant at all. */
export async function anyTenantExists(db: Executor): Promise<boolean> {
  return (await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** A tenant (its logo under its website) and its one account, `<name> HQ`; answers the tenant's id. */
export async function insertTenantWithAccount(
  db: Executor,
  tenant: { name: string; website: string },
): Promise<number> {
  const { id } = await db
    .insertInto('tenants')
    .values({
      name: tenant.name,
      logo_url: `${tenant.website}/logo.png`,
      website_url: tenant.website,
      may_any_user_activate_im_ok: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('accounts')
    .values({ tenant_id: id, name: `${tenant.name} HQ` })
    .execute();
  return id;
}

export const findTenantByName = (db: Executor, name: string) =>
  db.selectFrom('tenants').select('id').where('name', '=', name).executeTakeFirst();

export const findTenantByWebsite = (db: Executor, website: string) =>
  db.selectFrom('tenants').select('id').where('website_url', '=', website).executeTakeFirst();

/** The named tenants' ids. */
export const tenantsByName = (db: Executor, names: string[]) =>
  db.selectFrom('tenants').select(['id', 'name']).where('name', 'in', names).execute();

/** The named tenants' ids with their account's id. */
export const tenantsWithAccountByName = (db: Executor, names: string[]) =>
  db
    .selectFrom('tenants as t')
    .innerJoin('accounts as a', 'a.tenant_id', 't.id')
    .select(['t.id', 't.name', 'a.id as account_id'])
    .where('t.name', 'in', names)
    .execute();

// ---- Users and memberships

/** Answers the new user's id. */
export async function insertUser(db: Executor, user: Row<'users'>): Promise<number> {
  const { id } = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertUserSettings(db: Executor, settings: Row<'user_settings'>): Promise<void> {
  await db.insertInto('user_settings').values(settings).execute();
}

export const findUserByEmailHash = (db: Executor, hash: string) =>
  db.selectFrom('users').select('id').where('email_hash', '=', hash).executeTakeFirst();

export const findUserByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

/** The ids of the users with these emails. */
export const userIdsByEmail = (db: Executor, emails: string[]) =>
  db.selectFrom('users').select('id').where('email', 'in', emails).execute();

/** The users with these emails: id and email. */
export const usersByEmail = (db: Executor, emails: string[]) =>
  db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();

export async function insertMembership(db: Executor, membership: Row<'memberships'>): Promise<void> {
  await db.insertInto('memberships').values(membership).execute();
}

/** The membership, unless the user is already a member of the tenant (then it stays as it is). */
export async function ensureMembership(db: Executor, membership: Row<'memberships'>): Promise<void> {
  await db
    .insertInto('memberships')
    .values(membership)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .execute();
}

export async function makeTenantAdmin(db: Executor, tenantId: number, userId: number): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ is_admin: true })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

// ---- Organisation: meeting rooms, contacts, groups

export async function insertMeetingRooms(db: Executor, rooms: Row<'meeting_rooms'>[]): Promise<void> {
  await db.insertInto('meeting_rooms').values(rooms).execute();
}

export async function insertContacts(db: Executor, contacts: Row<'contacts'>[]): Promise<void> {
  await db.insertInto('contacts').values(contacts).execute();
}

/** Answers the new group's id. */
export async function insertGroup(db: Executor, group: Row<'groups'>): Promise<number> {
  const { id } = await db.insertInto('groups').values(group).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** A partner tenant takes part in a (crossOrg) group. */
export async function addGroupTenant(db: Executor, tenantId: number, groupId: number): Promise<void> {
  await db.insertInto('group_tenants').values({ tenant_id: tenantId, group_id: groupId }).execute();
}

export async function insertGroupFunctions(db: Executor, groupId: number, functions: GroupFunction[]): Promise<void> {
  await db
    .insertInto('group_functions')
    .values(functions.map((f) => ({ group_id: groupId, function: f })))
    .execute();
}

export async function insertGroupMember(db: Executor, member: Row<'group_members'>): Promise<void> {
  await db.insertInto('group_members').values(member).execute();
}

/** The ids of the tenant's groups with these names. */
export const groupIdsByName = (db: Executor, tenantId: number, names: string[]) =>
  db.selectFrom('groups').select('id').where('tenant_id', '=', tenantId).where('name', 'in', names).execute();

// ---- External communication

export async function insertSenderSettings(db: Executor, settings: Row<'cec_sender_settings'>): Promise<void> {
  await db.insertInto('cec_sender_settings').values(settings).execute();
}

/** Answers the new external group's id. */
export async function insertExternalGroup(db: Executor, group: Row<'cec_groups'>): Promise<number> {
  const { id } = await db.insertInto('cec_groups').values(group).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Answers the new external contact's id. */
export async function insertExternalContact(db: Executor, contact: Row<'cec_contacts'>): Promise<number> {
  const { id } = await db.insertInto('cec_contacts').values(contact).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertExternalGroupMembers(db: Executor, members: Row<'cec_group_members'>[]): Promise<void> {
  await db.insertInto('cec_group_members').values(members).execute();
}

export async function insertTemplates(db: Executor, templates: Row<'cec_templates'>[]): Promise<void> {
  await db.insertInto('cec_templates').values(templates).execute();
}

// ---- Personal alarms

/** Answers the alarm as stored. */
export const insertPersonalAlarm = (db: Executor, alarm: Row<'personal_alarms'>) =>
  db.insertInto('personal_alarms').values(alarm).returningAll().executeTakeFirstOrThrow();

export async function insertAlarmRecipientUsers(db: Executor, alarmId: number, userIds: number[]): Promise<void> {
  await db
    .insertInto('personal_alarm_recipient_users')
    .values(userIds.map((userId) => ({ alarm_id: alarmId, user_id: userId })))
    .execute();
}

export async function insertAlarmRecipientGroups(db: Executor, alarmId: number, groupIds: number[]): Promise<void> {
  await db
    .insertInto('personal_alarm_recipient_groups')
    .values(groupIds.map((groupId) => ({ alarm_id: alarmId, group_id: groupId })))
    .execute();
}
