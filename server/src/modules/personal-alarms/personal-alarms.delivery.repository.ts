// SQL of an armed timer's jobs (personal-alarms.delivery.ts): the locked reads that decide whether a job sends,
// the message rows it records, the alarm it marks fired, what a dispatch renders from and the fallback dispatch
// after a failed push or SMS. Functions that run inside a transaction take it as `db`.
import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../db/database';
import type { DB as Database } from '../../db/types';
import type { ClaimedDispatch } from '../../notify/deliveries';

/** The alarm a job is about, with its owner's name and its location, locked for the job's transaction. */
export const lockAlarmForDelivery = (db: Executor, alarmId: number) =>
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
    .where('a.id', '=', alarmId)
    .forUpdate('a')
    .executeTakeFirst();

/** The message already recorded for this alarm, kind and version, if any. */
export const findAlarmMessage = (db: Executor, alarmId: number, kind: 'warning' | 'alarm', version: number) =>
  db
    .selectFrom('personal_alarm_messages')
    .select('id')
    .where('alarm_id', '=', alarmId)
    .where('kind', '=', kind)
    .where('version', '=', version)
    .executeTakeFirst();

/** Records a message about to be sent; answers its id. */
export const insertAlarmMessage = (db: Executor, message: Insertable<Database['personal_alarm_messages']>) =>
  db.insertInto('personal_alarm_messages').values(message).returning('id').executeTakeFirstOrThrow();

/** The alarm went: it is no longer active and points at its message. */
export async function markAlarmFired(db: Executor, alarmId: number, messageId: number, now: Date): Promise<void> {
  await db
    .updateTable('personal_alarms')
    .set({ active: false, message_id: messageId, updated_at: now })
    .where('id', '=', alarmId)
    .execute();
}

/** What a recorded message renders from: its kind, its change, the alarm's text and time, owner and location. */
export const loadAlarmMessage = (db: Executor, messageId: number) =>
  db
    .selectFrom('personal_alarm_messages as pm')
    .innerJoin('personal_alarms as a', 'a.id', 'pm.alarm_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('personal_alarm_locations as l', 'l.id', 'a.location_id')
    .select(['pm.kind', 'pm.change_id', 'a.text', 'a.dispatch_at', 'u.name as owner', 'l.latitude', 'l.longitude'])
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
