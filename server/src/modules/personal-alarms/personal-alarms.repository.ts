// SQL of personal alarms. Every query of tenant data carries the tenant predicate; functions that run inside a
// transaction take it as `db` (never the shared handle: PGlite's one connection is held by the transaction).
import { sql, type Insertable, type Kysely, type RawBuilder, type Updateable } from 'kysely';
import type { DB as Database } from '../../db/types';
import type { ClaimedDispatch } from '../../notify/deliveries';
import type { PageParams } from '../../shared/paging';

type Executor = Kysely<Database>;

export const alarmColumns = [
  'id',
  'tenant_id',
  'user_id',
  'device_id',
  'text',
  'dispatch_at',
  'active',
  'one_minute_warning',
  'location_id',
  'message_id',
  'version',
  'created_at',
] as const;

export async function findAlarm(db: Executor, tenantId: number, id: number, lock = false) {
  let query = db
    .selectFrom('personal_alarms')
    .select(alarmColumns)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export type AlarmRow = NonNullable<Awaited<ReturnType<typeof findAlarm>>>;

export async function selectAlarms(db: Executor, tenantId: number, onlyActive: boolean, page: PageParams) {
  let query = db.selectFrom('personal_alarms').select(alarmColumns).where('tenant_id', '=', tenantId);
  if (onlyActive) query = query.where('active', '=', true);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countAlarms(db: Executor, tenantId: number, onlyActive: boolean): Promise<number> {
  let query = db
    .selectFrom('personal_alarms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId);
  if (onlyActive) query = query.where('active', '=', true);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Another active alarm on the same device of the same user. */
export async function findActiveAlarmOnDevice(db: Executor, userId: number, deviceId: string, exceptId?: number) {
  let query = db
    .selectFrom('personal_alarms')
    .select('id')
    .where('user_id', '=', userId)
    .where('device_id', '=', deviceId)
    .where('active', '=', true);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/** The given users that belong to the tenant and the given groups the tenant takes part in. */
export async function validRecipientRefs(db: Executor, tenantId: number, userIds: number[], groupIds: number[]) {
  const users = userIds.length
    ? (
        await db
          .selectFrom('memberships')
          .select('user_id')
          .where('tenant_id', '=', tenantId)
          .where('user_id', 'in', userIds)
          .execute()
      ).map((r) => r.user_id)
    : [];
  const groups = groupIds.length
    ? (
        await db
          .selectFrom('group_tenants')
          .select('group_id')
          .where('tenant_id', '=', tenantId)
          .where('group_id', 'in', groupIds)
          .execute()
      ).map((r) => r.group_id)
    : [];
  return { users, groups };
}

/** How many people those refs reach besides the owner (users plus the members of the groups, each person once). */
export async function countReachedUsers(
  db: Executor,
  ownerId: number,
  userIds: number[],
  groupIds: number[],
): Promise<number> {
  const members = groupIds.length
    ? (await db.selectFrom('group_members').select('user_id').where('group_id', 'in', groupIds).execute()).map(
        (r) => r.user_id,
      )
    : [];
  const reached = new Set([...userIds, ...members]);
  reached.delete(ownerId);
  return reached.size;
}

export async function selectRecipientRefs(db: Executor, alarmId: number) {
  const users = (
    await db.selectFrom('personal_alarm_recipient_users').select('user_id').where('alarm_id', '=', alarmId).execute()
  ).map((r) => r.user_id);
  const groups = (
    await db.selectFrom('personal_alarm_recipient_groups').select('group_id').where('alarm_id', '=', alarmId).execute()
  ).map((r) => r.group_id);
  return { users, groups };
}

export async function replaceRecipientUsers(db: Executor, alarmId: number, userIds: number[]) {
  await db.deleteFrom('personal_alarm_recipient_users').where('alarm_id', '=', alarmId).execute();
  if (userIds.length)
    await db
      .insertInto('personal_alarm_recipient_users')
      .values(userIds.map((user_id) => ({ alarm_id: alarmId, user_id })))
      .execute();
}

export async function replaceRecipientGroups(db: Executor, alarmId: number, groupIds: number[]) {
  await db.deleteFrom('personal_alarm_recipient_groups').where('alarm_id', '=', alarmId).execute();
  if (groupIds.length)
    await db
      .insertInto('personal_alarm_recipient_groups')
      .values(groupIds.map((group_id) => ({ alarm_id: alarmId, group_id })))
      .execute();
}

export async function insertLocation(
  db: Executor,
  tenantId: number,
  location: { latitude: number; longitude: number },
): Promise<number> {
  const row = await db
    .insertInto('personal_alarm_locations')
    .values({ tenant_id: tenantId, ...location })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Creates the alarm message's dispatches, already claimed by the job that sends them (status 'sending' under its
 * claim): every recipient gets a push to each of their devices, or an SMS when they have no device, or an email
 * when they have neither, each in the recipient's language. `recipients` selects the user ids.
 */
export async function insertClaimedUserDispatches(
  db: Executor,
  tenantId: number,
  messageId: number,
  recipients: RawBuilder<unknown>,
  now: Date,
  claim: string,
) {
  const { rows } = await sql<ClaimedDispatch>`
    with r as (${recipients})
    insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at, status, locked_by, attempts, language)
    select ${tenantId}, 'alarm', ${messageId}, r.user_id,
           case when pt.token is not null then 'push' when u.phone_primary is not null then 'sms' else 'email' end,
           coalesce(pt.token, u.phone_primary, u.email), ${now}, 'sending', ${claim}, 0, us.preferred_language
      from r join users u on u.id = r.user_id left join push_tokens pt on pt.user_id = r.user_id
      left join user_settings us on us.user_id = r.user_id
    on conflict do nothing
    returning id, recipient_id, channel, sent_to, attempts, key_nonce, language`.execute(db);
  return rows;
}

/**
 * The alarm's recipients as they are now: listed users still in the tenant and members of its listed groups,
 * without the owner (who is the one not answering; they get the warning instead).
 */
export const alarmRecipients = (alarmId: number, tenantId: number, ownerId: number) => sql`
  select ru.user_id from personal_alarm_recipient_users ru
    join memberships ms on ms.user_id = ru.user_id and ms.tenant_id = ${tenantId}
   where ru.alarm_id = ${alarmId} and ru.user_id <> ${ownerId}
  union
  select gm.user_id from personal_alarm_recipient_groups rg
    join group_tenants gt on gt.group_id = rg.group_id and gt.tenant_id = ${tenantId}
    join group_members gm on gm.group_id = rg.group_id
   where rg.alarm_id = ${alarmId} and gm.user_id <> ${ownerId}`;

export const singleUser = (userId: number) => sql`select ${userId}::bigint as user_id`;

/** A stored location's point, if it is still there. */
export const findLocationPoint = (db: Executor, locationId: number) =>
  db
    .selectFrom('personal_alarm_locations')
    .select(['latitude', 'longitude'])
    .where('id', '=', locationId)
    .executeTakeFirst();

export const insertAlarm = (db: Executor, alarm: Insertable<Database['personal_alarms']>) =>
  db.insertInto('personal_alarms').values(alarm).returningAll().executeTakeFirstOrThrow();

/** Changes an alarm and answers it as it now is. */
export const updateAlarm = (db: Executor, id: number, changes: Updateable<Database['personal_alarms']>) =>
  db.updateTable('personal_alarms').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Records a change of an alarm; answers the record's id. */
export async function insertAlarmChange(
  db: Executor,
  change: Insertable<Database['personal_alarm_changes']>,
): Promise<number> {
  const row = await db.insertInto('personal_alarm_changes').values(change).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
