// SQL of an armed timer's jobs (personal-alarms.delivery.ts), set-based so one transaction serves every job of a
// claimed batch: the locked reads that decide whether a job sends, the message rows and dispatches it records, the
// alarms it marks fired, what a dispatch renders from and the fallback dispatch
// after a failed push or SMS. Functions that run inside a transaction take it as `db`.
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/database';
import type { DB as Database } from '../../db/types';
import type { ClaimedDispatch } from '../../notify/deliveries';

/** The alarms the jobs are about, with their owners' names and locations, locked (in id order) for the jobs' transaction. */
export const lockAlarmsForDelivery = (db: Executor, alarmIds: number[]) =>
  db
    .selectFrom('personal_alarms as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('personal_alarm_locations as l', 'l.id', 'a.location_id')
    .select([
      'a.id',
      'a.tenant_id',
      'a.user_id',
      'a.active',
      'a.version',
      'a.message_id',
      'a.dispatch_at',
      'a.text',
      'u.name as owner',
      'l.latitude',
      'l.longitude',
    ])
    .where('a.id', 'in', alarmIds)
    .orderBy('a.id')
    .forUpdate('a')
    .execute();

/** The messages of this kind already recorded for these alarms (any version). */
export const findAlarmMessages = (db: Executor, alarmIds: number[], kind: 'warning' | 'alarm') =>
  db
    .selectFrom('personal_alarm_messages')
    .select(['id', 'alarm_id', 'version'])
    .where('alarm_id', 'in', alarmIds)
    .where('kind', '=', kind)
    .execute();

/** Records a message about to be sent; answers its id. */
export const insertAlarmMessage = (db: Executor, message: Insertable<Database['personal_alarm_messages']>) =>
  db.insertInto('personal_alarm_messages').values(message).returning('id').executeTakeFirstOrThrow();

/** Records several messages about to be sent (at most one per alarm); answers each id with its alarm. */
export const insertAlarmMessages = (db: Executor, messages: Insertable<Database['personal_alarm_messages']>[]) =>
  db.insertInto('personal_alarm_messages').values(messages).returning(['id', 'alarm_id']).execute();

/** One recorded alarm or warning message whose dispatches are to be made, and the job claim that sends them. */
export interface AlarmMessageToDispatch {
  messageId: number;
  alarmId: number;
  tenantId: number;
  ownerId: number;
  kind: 'warning' | 'alarm';
  claim: string;
}

/**
 * Creates the dispatches of several messages in one statement, each already claimed by the job that sends it
 * (status 'sending' under that job's claim). An alarm goes to its recipient users who are members of its tenant
 * and the members of its recipient groups shared with the tenant, never to its owner; a warning to its owner. Each
 * recipient gets a push to each of their devices, or an SMS when they have no device, or an email when they have
 * neither, each in the recipient's language.
 */
export async function insertClaimedAlarmDispatches(
  db: Executor,
  messages: AlarmMessageToDispatch[],
  now: Date,
): Promise<(ClaimedDispatch & { message_id: number })[]> {
  if (messages.length === 0) return [];
  const column = <K extends keyof AlarmMessageToDispatch>(key: K) => messages.map((m) => m[key]);
  const { rows } = await sql<ClaimedDispatch & { message_id: number }>`
    with m as (
      select * from unnest(${column('messageId')}::bigint[], ${column('alarmId')}::bigint[], ${column('tenantId')}::bigint[],
                           ${column('ownerId')}::bigint[], ${column('kind')}::text[], ${column('claim')}::text[])
               as m (message_id, alarm_id, tenant_id, owner_id, kind, claim)
    ), r as (
      select m.message_id, m.tenant_id, m.claim, ru.user_id from m
        join personal_alarm_recipient_users ru on ru.alarm_id = m.alarm_id and ru.user_id <> m.owner_id
        join memberships ms on ms.user_id = ru.user_id and ms.tenant_id = m.tenant_id
       where m.kind = 'alarm'
      union
      select m.message_id, m.tenant_id, m.claim, gm.user_id from m
        join personal_alarm_recipient_groups rg on rg.alarm_id = m.alarm_id
        join group_tenants gt on gt.group_id = rg.group_id and gt.tenant_id = m.tenant_id
        join group_members gm on gm.group_id = rg.group_id and gm.user_id <> m.owner_id
       where m.kind = 'alarm'
      union
      select m.message_id, m.tenant_id, m.claim, m.owner_id from m where m.kind = 'warning'
    )
    insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at, status, locked_by, attempts, language)
    select r.tenant_id, 'alarm', r.message_id, r.user_id,
           case when pt.token is not null then 'push' when u.phone_primary is not null then 'sms' else 'email' end,
           coalesce(pt.token, u.phone_primary, u.email), ${now}, 'sending', r.claim, 0, us.preferred_language
      from r join users u on u.id = r.user_id left join push_tokens pt on pt.user_id = r.user_id
      left join user_settings us on us.user_id = r.user_id
    on conflict do nothing
    returning id, message_id, recipient_id, channel, sent_to, attempts, key_nonce, language`.execute(db);
  return rows.map((row) => ({ ...row, message_id: Number(row.message_id) }));
}

/** The alarms went: each is no longer active and points at its message. */
export async function markAlarmsFired(
  db: Executor,
  fired: { alarmId: number; messageId: number }[],
  now: Date,
): Promise<void> {
  if (fired.length === 0) return;
  await sql`
    update personal_alarms a set active = false, message_id = f.message_id, updated_at = ${now}
      from unnest(${fired.map((f) => f.alarmId)}::bigint[], ${fired.map((f) => f.messageId)}::bigint[]) as f (id, message_id)
     where a.id = f.id`.execute(db);
}

/** What a recorded message renders from: its kind, its change, the alarm's text and time, owner and location. */
export const loadAlarmMessage = (db: Executor, messageId: number) =>
  db
    .selectFrom('personal_alarm_messages as pm')
    .innerJoin('personal_alarms as a', 'a.id', 'pm.alarm_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('personal_alarm_locations as l', 'l.id', 'a.location_id')
    .select([
      'pm.kind',
      'pm.change_id',
      'pm.repeats',
      'pm.repeats_since',
      'a.text',
      'a.dispatch_at',
      'u.name as owner',
      'l.latitude',
      'l.longitude',
    ])
    .where('pm.id', '=', messageId)
    .executeTakeFirstOrThrow();

/**
 * The next channel for a dispatch that gave up (a push goes to SMS when the recipient has a phone, else to email;
 * any other channel goes to email), unless the recipient has another dispatch of the message that has not failed.
 */
export async function insertFallbackDispatch(
  db: Executor,
  failed: Pick<ClaimedDispatch, 'id' | 'channel'>,
  now: Date,
): Promise<void> {
  const next =
    failed.channel === 'push' ? sql`case when u.phone_primary is not null then 'sms' else 'email' end` : sql`'email'`;
  const address = failed.channel === 'push' ? sql`coalesce(u.phone_primary, u.email)` : sql`u.email`;
  await sql`
        insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at, language)
        select d.tenant_id, 'alarm', d.message_id, d.recipient_id, ${next}, ${address}, ${now}::timestamptz, d.language
          from dispatches d join users u on u.id = d.recipient_id
         where d.id = ${failed.id}
           and not exists (select 1 from dispatches o
                            where o.source = 'alarm' and o.message_id = d.message_id and o.recipient_id = d.recipient_id
                              and o.status <> 'failed')
        on conflict do nothing`.execute(db);
}

/** A recorded change with its alarm's owner and version, locked for the notice job's transaction. */
export const lockChangeForNotice = (db: Executor, changeId: number) =>
  db
    .selectFrom('personal_alarm_changes as c')
    .innerJoin('personal_alarms as a', 'a.id', 'c.alarm_id')
    .select(['c.id', 'c.tenant_id', 'c.alarm_id', 'a.user_id', 'a.version'])
    .where('c.id', '=', changeId)
    .forUpdate('c')
    .executeTakeFirst();

/** The notice already recorded for a change, if any. */
export const findChangeMessage = (db: Executor, changeId: number) =>
  db.selectFrom('personal_alarm_messages').select('id').where('change_id', '=', changeId).executeTakeFirst();

/** What a change notice says: the change, the alarm's text and time, and who made it (null once deleted). */
export const loadChangeFacts = (db: Executor, changeId: number) =>
  db
    .selectFrom('personal_alarm_changes as c')
    .innerJoin('personal_alarms as a', 'a.id', 'c.alarm_id')
    .leftJoin('users as actor', 'actor.id', 'c.actor_id')
    .select(['c.changes', 'a.text', 'a.dispatch_at', 'actor.name as actor'])
    .where('c.id', '=', changeId)
    .executeTakeFirstOrThrow();
