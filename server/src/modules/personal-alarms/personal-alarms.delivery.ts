// The jobs of an armed timer. Each first records what it is about to send (a personal_alarm_messages row, unique
// per alarm, kind and version, with its dispatches) in one transaction with the checks, then sends. Run again
// after a crash it finds the row and only sends what is not sent yet; made for an older version, it does nothing.
import {
  deliverDispatches,
  type ClaimedDispatch,
  type DispatchSourceAdapter,
  type LoadedMessage,
  type Rendered,
} from '../../notify/deliveries';
import {
  personalAlarmChangedNotice,
  personalAlarmMessage,
  personalAlarmWarning,
  type AlarmChange,
} from '../../messages/alarm-messages';
import { fallbackLanguage, languageOfTag } from '../../messages/languages';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import type { Executor } from '../../db/database';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';
import {
  findAlarmMessage,
  findChangeMessage,
  insertAlarmMessage,
  insertFallbackDispatch,
  loadAlarmMessage,
  loadChangeFacts,
  lockAlarmForDelivery,
  lockChangeForNotice,
  markAlarmFired,
} from './personal-alarms.delivery.repository';
import { alarmRecipients, insertClaimedUserDispatches, singleUser } from './personal-alarms.repository';

type Kind = 'warning' | 'alarm';

export async function fireAlarm(
  services: PersonalAlarmsDeps,
  alarmId: number,
  version: number,
  ctx: JobContext,
): Promise<JobResult> {
  return runAlarmJob(services, alarmId, version, 'alarm', ctx);
}

export async function warnOwner(
  services: PersonalAlarmsDeps,
  alarmId: number,
  version: number,
  ctx: JobContext,
): Promise<JobResult> {
  return runAlarmJob(services, alarmId, version, 'warning', ctx);
}

async function runAlarmJob(
  services: PersonalAlarmsDeps,
  alarmId: number,
  version: number,
  kind: Kind,
  ctx: JobContext,
): Promise<JobResult> {
  const now = ctx.now();
  const outcome = await services.db
    .transaction()
    .execute(async (trx): Promise<number | { rerunAt: Date } | Fresh | null> => {
      const alarm = await lockAlarmForDelivery(trx, alarmId);
      if (!alarm) return null;
      // Run again after a crash or for a retry: send what is left of what was recorded. (A fired alarm keeps its
      // version: it can be neither moved nor armed again, so message_id belongs to this version's job.)
      if (kind === 'alarm' && alarm.message_id !== null) return alarm.version === version ? alarm.message_id : null;
      if (kind === 'warning') {
        const existing = await findAlarmMessage(trx, alarmId, kind, version);
        if (existing) return existing.id;
      }
      if (!alarm.active || alarm.version !== version) return null;
      if (kind === 'alarm' && alarm.dispatch_at > now) return { rerunAt: alarm.dispatch_at };
      // A warning that would arrive when the alarm is already due is pointless: the alarm itself goes now.
      if (kind === 'warning' && alarm.dispatch_at <= now) return null;
      const message = await insertAlarmMessage(trx, {
        tenant_id: alarm.tenant_id,
        alarm_id: alarm.id,
        kind,
        version,
        created_at: now,
      });
      const recipients =
        kind === 'alarm' ? alarmRecipients(alarm.id, alarm.tenant_id, alarm.user_id) : singleUser(alarm.user_id);
      const claimed = await insertClaimedUserDispatches(trx, alarm.tenant_id, message.id, recipients, now, ctx.claim);
      if (kind === 'alarm') await markAlarmFired(trx, alarm.id, message.id, now);
      return { messageId: message.id, claimed, message: render(services, { kind, ...alarm }) };
    });
  if (outcome === null) return undefined;
  if (typeof outcome === 'number') return deliverDispatches(services, ctx, alarmAdapter, outcome);
  if ('rerunAt' in outcome) return outcome;
  if (kind === 'alarm')
    services.logger.info(
      { alarmId, messageId: outcome.messageId, recipients: outcome.claimed.length },
      'personal alarm dispatched',
    );
  return deliverDispatches(services, ctx, alarmAdapter, outcome.messageId, {
    fresh: true,
    claimed: outcome.claimed,
    message: outcome.message,
  });
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

const secondsLeft = (dispatchAt: Date, now: Date) =>
  Math.max(0, Math.round((dispatchAt.getTime() - now.getTime()) / 1_000));

/** Each dispatch in its recipient's language and its channel's form (email with an HTML part). */
function render(services: PersonalAlarmsDeps, m: AlarmText): LoadedMessage {
  const facts = {
    owner: m.owner,
    text: m.text,
    dispatchAt: m.dispatch_at,
    latitude: m.latitude,
    longitude: m.longitude,
  };
  return {
    render: (dispatch): Rendered => {
      const language = languageOfTag(dispatch.language) ?? fallbackLanguage;
      return m.kind === 'warning'
        ? personalAlarmWarning(language, dispatch.channel, facts, secondsLeft(m.dispatch_at, services.now()))
        : personalAlarmMessage(language, dispatch.channel, facts, services.config.timeZone);
    },
  };
}

export const alarmAdapter: DispatchSourceAdapter<PersonalAlarmsDeps> = {
  source: 'alarm',
  async load(services: PersonalAlarmsDeps, messageId: number): Promise<LoadedMessage> {
    const m = await loadAlarmMessage(services.db, messageId);
    if (m.kind === 'changed') return renderChange(services, await loadChange(services.db, m.change_id!));
    return render(services, { ...m, kind: m.kind });
  },
  // A push that could not be delivered falls back to SMS, an SMS to email, unless the person was reached otherwise.
  async onGaveUp(services: PersonalAlarmsDeps, messageId: number, failed: ClaimedDispatch[]) {
    const now = services.now();
    for (const dispatch of failed) {
      if (dispatch.channel === 'email') continue;
      await insertFallbackDispatch(services.db, dispatch, now);
    }
  },
};

/**
 * The owner's notice of a change someone else made (personal-alarms.audit.ts enqueues it with the change). Like
 * the alarm's own jobs it first records the message and its dispatch (one per recorded change), then sends; run
 * again it only sends what is not sent yet.
 */
export async function noticeOwnerOfChange(
  services: PersonalAlarmsDeps,
  changeId: number,
  ctx: JobContext,
): Promise<JobResult> {
  const now = ctx.now();
  const outcome = await services.db.transaction().execute(async (trx): Promise<number | Fresh | null> => {
    const change = await lockChangeForNotice(trx, changeId);
    if (!change) return null;
    const existing = await findChangeMessage(trx, changeId);
    if (existing) return existing.id;
    const message = await insertAlarmMessage(trx, {
      tenant_id: change.tenant_id,
      alarm_id: change.alarm_id,
      kind: 'changed',
      version: change.version,
      change_id: change.id,
      created_at: now,
    });
    const claimed = await insertClaimedUserDispatches(
      trx,
      change.tenant_id,
      message.id,
      singleUser(change.user_id),
      now,
      ctx.claim,
    );
    return { messageId: message.id, claimed, message: renderChange(services, await loadChange(trx, changeId)) };
  });
  if (outcome === null) return undefined;
  if (typeof outcome === 'number') return deliverDispatches(services, ctx, alarmAdapter, outcome);
  return deliverDispatches(services, ctx, alarmAdapter, outcome.messageId, {
    fresh: true,
    claimed: outcome.claimed,
    message: outcome.message,
  });
}

/** What the notice says: who (null once deleted), the alarm as the owner knows it (its text before the change), what changed. */
async function loadChange(db: Executor, changeId: number): Promise<AlarmChange> {
  const row = await loadChangeFacts(db, changeId);
  const changes = row.changes as AlarmChange['changes'] & { text?: { from?: unknown; to: unknown } };
  return {
    actor: row.actor ?? null,
    text: typeof changes.text?.from === 'string' ? changes.text.from : row.text,
    dispatchAt: row.dispatch_at,
    changes,
  };
}

function renderChange(services: PersonalAlarmsDeps, change: AlarmChange): LoadedMessage {
  return {
    render: (dispatch): Rendered =>
      personalAlarmChangedNotice(
        languageOfTag(dispatch.language) ?? fallbackLanguage,
        dispatch.channel,
        change,
        services.config.timeZone,
      ),
  };
}
