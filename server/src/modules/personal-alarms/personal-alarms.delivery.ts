// The jobs of an armed timer. Each first records what it is about to send (a personal_alarm_messages row, unique
// per alarm, kind and version, with its dispatches) in one transaction with the checks, then sends. Run again
// after a crash it finds the row and only sends what is not sent yet; made for an older version, it does nothing.
import { sql } from 'kysely';
import { deliverDispatches, type ClaimedDispatch, type DispatchSourceAdapter, type LoadedMessage, type Rendered } from '../../jobs/deliveries';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import type { Services } from '../../services';
import { alarmRecipients, insertClaimedUserDispatches, singleUser } from './personal-alarms.repository';

type Kind = 'warning' | 'alarm';

export async function fireAlarm(services: Services, alarmId: number, version: number, ctx: JobContext): Promise<JobResult> {
  return runAlarmJob(services, alarmId, version, 'alarm', ctx);
}

export async function warnOwner(services: Services, alarmId: number, version: number, ctx: JobContext): Promise<JobResult> {
  return runAlarmJob(services, alarmId, version, 'warning', ctx);
}

async function runAlarmJob(services: Services, alarmId: number, version: number, kind: Kind, ctx: JobContext): Promise<JobResult> {
  const now = ctx.now();
  const outcome = await services.db.transaction().execute(async (trx): Promise<number | { rerunAt: Date } | Fresh | null> => {
    const alarm = await trx
      .selectFrom('personal_alarms as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('personal_alarm_locations as l', 'l.id', 'a.location_id')
      .select(['a.id', 'a.tenant_id', 'a.user_id', 'a.active', 'a.version', 'a.message_id', 'a.dispatch_at', 'a.text', 'u.name as owner', 'l.latitude', 'l.longitude'])
      .where('a.id', '=', alarmId)
      .forUpdate('a')
      .executeTakeFirst();
    if (!alarm) return null;
    // Run again after a crash or for a retry: send what is left of what was recorded. (A fired alarm keeps its
    // version: it can be neither moved nor armed again, so message_id belongs to this version's job.)
    if (kind === 'alarm' && alarm.message_id !== null) return alarm.version === version ? alarm.message_id : null;
    if (kind === 'warning') {
      const existing = await trx
        .selectFrom('personal_alarm_messages')
        .select('id')
        .where('alarm_id', '=', alarmId)
        .where('kind', '=', kind)
        .where('version', '=', version)
        .executeTakeFirst();
      if (existing) return existing.id;
    }
    if (!alarm.active || alarm.version !== version) return null;
    if (kind === 'alarm' && alarm.dispatch_at > now) return { rerunAt: alarm.dispatch_at };
    // A warning that would arrive when the alarm is already due is pointless: the alarm itself goes now.
    if (kind === 'warning' && alarm.dispatch_at <= now) return null;
    const message = await trx
      .insertInto('personal_alarm_messages')
      .values({ tenant_id: alarm.tenant_id, alarm_id: alarm.id, kind, version, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recipients = kind === 'alarm' ? alarmRecipients(alarm.id, alarm.tenant_id, alarm.user_id) : singleUser(alarm.user_id);
    const claimed = await insertClaimedUserDispatches(trx, alarm.tenant_id, message.id, recipients, now, ctx.claim);
    if (kind === 'alarm') {
      await trx.updateTable('personal_alarms').set({ active: false, message_id: message.id, updated_at: now }).where('id', '=', alarm.id).execute();
    }
    return { messageId: message.id, claimed, message: render(services, { kind, ...alarm }) };
  });
  if (outcome === null) return undefined;
  if (typeof outcome === 'number') return deliverDispatches(services, ctx, alarmAdapter, outcome);
  if ('rerunAt' in outcome) return outcome;
  if (kind === 'alarm') services.logger.info({ alarmId, messageId: outcome.messageId, recipients: outcome.claimed.length }, 'personal alarm dispatched');
  return deliverDispatches(services, ctx, alarmAdapter, outcome.messageId, { fresh: true, claimed: outcome.claimed, message: outcome.message });
}

interface Fresh {
  messageId: number;
  claimed: ClaimedDispatch[];
  message: LoadedMessage;
}

interface AlarmText {
  kind: Kind;
  text: string;
  dispatch_at: Date;
  owner: string;
  latitude: number | null;
  longitude: number | null;
}

const secondsLeft = (dispatchAt: Date, now: Date) => Math.max(0, Math.round((dispatchAt.getTime() - now.getTime()) / 1_000));

function render(services: Services, m: AlarmText): LoadedMessage {
  if (m.kind === 'warning') {
    return {
      render: (): Rendered => ({
        subject: 'Your personal alarm goes off soon',
        body: `Your personal alarm goes off in ${secondsLeft(m.dispatch_at, services.now())} seconds unless you stop or extend it: ${m.text}`,
      }),
    };
  }
  const where =
    m.latitude !== null && m.longitude !== null
      ? `\nLast known location: ${m.latitude}, ${m.longitude} https://www.openstreetmap.org/?mlat=${m.latitude}&mlon=${m.longitude}`
      : '';
  const body = `Personal alarm from ${m.owner}: ${m.text}${where}\nThe timer ran out at ${m.dispatch_at.toISOString()}.`;
  return { render: (): Rendered => ({ subject: `Personal alarm: ${m.owner}`, body }) };
}

export const alarmAdapter: DispatchSourceAdapter = {
  source: 'alarm',
  async load(services: Services, messageId: number): Promise<LoadedMessage> {
    const m = await services.db
      .selectFrom('personal_alarm_messages as pm')
      .innerJoin('personal_alarms as a', 'a.id', 'pm.alarm_id')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('personal_alarm_locations as l', 'l.id', 'a.location_id')
      .select(['pm.kind', 'a.text', 'a.dispatch_at', 'u.name as owner', 'l.latitude', 'l.longitude'])
      .where('pm.id', '=', messageId)
      .executeTakeFirstOrThrow();
    return render(services, m);
  },
  // A push that could not be delivered falls back to SMS, an SMS to email, unless the person was reached otherwise.
  async onGaveUp(services: Services, messageId: number, failed: ClaimedDispatch[]) {
    const now = services.now();
    for (const dispatch of failed) {
      if (dispatch.channel === 'email') continue;
      const next = dispatch.channel === 'push' ? sql`case when u.phone_primary is not null then 'sms' else 'email' end` : sql`'email'`;
      const address = dispatch.channel === 'push' ? sql`coalesce(u.phone_primary, u.email)` : sql`u.email`;
      await sql`
        insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at)
        select d.tenant_id, 'alarm', d.message_id, d.recipient_id, ${next}, ${address}, ${now}::timestamptz
          from dispatches d join users u on u.id = d.recipient_id
         where d.id = ${dispatch.id}
           and not exists (select 1 from dispatches o
                            where o.source = 'alarm' and o.message_id = d.message_id and o.recipient_id = d.recipient_id
                              and o.status <> 'failed')
        on conflict do nothing`.execute(services.db);
    }
  },
};
