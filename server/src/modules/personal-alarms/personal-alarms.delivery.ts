// The jobs of an armed timer. Each first records what it is about to send (a personal_alarm_messages row, unique
// per alarm, kind and version, with its dispatches) in one transaction with the checks, then sends. Run again
// after a crash it finds the row and only sends what is not sent yet; made for an older version, it does nothing.
// Jobs claimed together (10,000 alarms due within a minute) share that transaction, so its cost does not grow
// with every alarm; each job still sends under its own claim and fails on its own. An alarm that repeats one just
// delivered to the same recipients is recorded without dispatches and counted into a summary (personal-alarms.repeats.ts).
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
import type { BatchJobResult, JobContext, JobResult } from '../../jobs/scheduler';
import type { Executor } from '../../db/database';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';
import {
  findAlarmMessages,
  findChangeMessage,
  insertAlarmMessage,
  insertAlarmMessages,
  insertClaimedAlarmDispatches,
  insertFallbackDispatch,
  loadAlarmMessage,
  loadChangeFacts,
  lockAlarmsForDelivery,
  lockChangeForNotice,
  markAlarmsFired,
} from './personal-alarms.delivery.repository';
import { insertClaimedUserDispatches, singleUser } from './personal-alarms.repository';
import { collapseRepeats, recordRepeatSummary, type Collapsed } from './personal-alarms.repeats';
import { countVolume } from '../../notify/unusual-volume';

type Kind = 'warning' | 'alarm';

/** One claimed job of an armed timer: the alarm and version it was made for, and its claim. */
export interface AlarmJob {
  alarmId: number;
  version: number;
  ctx: JobContext;
}

export async function fireAlarm(
  services: PersonalAlarmsDeps,
  alarmId: number,
  version: number,
  ctx: JobContext,
): Promise<JobResult> {
  return one(await runAlarmJobs(services, 'alarm', [{ alarmId, version, ctx }]));
}

export async function warnOwner(
  services: PersonalAlarmsDeps,
  alarmId: number,
  version: number,
  ctx: JobContext,
): Promise<JobResult> {
  return one(await runAlarmJobs(services, 'warning', [{ alarmId, version, ctx }]));
}

/** The alarm jobs claimed together (the scheduler's batch handler): one transaction records them all. */
export const fireAlarms = (services: PersonalAlarmsDeps, jobs: AlarmJob[]) => runAlarmJobs(services, 'alarm', jobs);

/** The one-minute warnings claimed together. */
export const warnOwners = (services: PersonalAlarmsDeps, jobs: AlarmJob[]) => runAlarmJobs(services, 'warning', jobs);

function one(results: BatchJobResult[]): JobResult {
  const [result] = results;
  if (result && 'error' in result) throw result.error;
  return result;
}

/** What a job does once the transaction has decided: nothing, send what is left, run again later, or send new. */
type Decision = null | number | { rerunAt: Date } | Fresh;

/**
 * The jobs of one kind, claimed together: one transaction locks their alarms (in id order), decides for each job
 * as a job of its own would, and records the new messages and their dispatches set-based; then each job sends its
 * own dispatches, side by side, and a failure is that job's alone.
 */
async function runAlarmJobs(services: PersonalAlarmsDeps, kind: Kind, jobs: AlarmJob[]): Promise<BatchJobResult[]> {
  if (jobs.length === 0) return [];
  const now = jobs[0].ctx.now();
  /** Alarms that went off (delivered or collapsed), per tenant: counted for the unusual-volume notice. */
  const raised = new Map<number, number>();
  const decisions = await services.db.transaction().execute(async (trx): Promise<Decision[]> => {
    raised.clear();
    const alarmIds = [...new Set(jobs.map((job) => job.alarmId))];
    const alarms = new Map((await lockAlarmsForDelivery(trx, alarmIds)).map((alarm) => [alarm.id, alarm]));
    const recorded = kind === 'warning' ? await findAlarmMessages(trx, alarmIds, kind) : [];
    const fresh: { index: number; alarm: NonNullable<ReturnType<typeof alarms.get>> }[] = [];
    const decided = jobs.map(({ alarmId, version }, index): Decision => {
      const alarm = alarms.get(alarmId);
      if (!alarm) return null;
      // Run again after a crash or for a retry: send what is left of what was recorded. (A fired alarm keeps its
      // version: it can be neither moved nor armed again, so message_id belongs to this version's job.)
      if (kind === 'alarm' && alarm.message_id !== null) return alarm.version === version ? alarm.message_id : null;
      if (kind === 'warning') {
        const existing = recorded.find((m) => m.alarm_id === alarmId && m.version === version);
        if (existing) return existing.id;
      }
      if (!alarm.active || alarm.version !== version) return null;
      if (kind === 'alarm' && alarm.dispatch_at > now) return { rerunAt: alarm.dispatch_at };
      // A warning that would arrive when the alarm is already due is pointless: the alarm itself goes now.
      if (kind === 'warning' && alarm.dispatch_at <= now) return null;
      // Dedupe keys make one job per alarm, kind and version: at most one fresh job per alarm.
      fresh.push({ index, alarm });
      return null;
    });
    if (fresh.length === 0) return decided;
    // An alarm always goes off; one that repeats an alarm just delivered to the same recipients is counted into
    // the summary of its window instead of being delivered on its own.
    const collapsed =
      kind === 'alarm'
        ? await collapseRepeats(
            services,
            trx,
            fresh.map(({ alarm }) => ({ alarmId: alarm.id, tenantId: alarm.tenant_id, ownerId: alarm.user_id })),
            now,
          )
        : new Map<number, Collapsed>();
    const messages = await insertAlarmMessages(
      trx,
      fresh.map(({ index, alarm }) => ({
        tenant_id: alarm.tenant_id,
        alarm_id: alarm.id,
        kind,
        version: jobs[index].version,
        created_at: now,
        repeat_window_id: collapsed.get(alarm.id)?.windowId ?? null,
        repeat_generation: collapsed.get(alarm.id)?.generation ?? null,
      })),
    );
    const messageOf = new Map(messages.map((m) => [Number(m.alarm_id), m.id]));
    const toRecord = fresh.map(({ index, alarm }) => ({
      messageId: messageOf.get(alarm.id)!,
      alarmId: alarm.id,
      tenantId: alarm.tenant_id,
      ownerId: alarm.user_id,
      kind,
      claim: jobs[index].ctx.claim,
    }));
    const claimed = await insertClaimedAlarmDispatches(
      trx,
      toRecord.filter((m) => !collapsed.has(m.alarmId)),
      now,
    );
    if (kind === 'alarm') {
      await markAlarmsFired(trx, toRecord, now);
      for (const { tenantId } of toRecord) raised.set(tenantId, (raised.get(tenantId) ?? 0) + 1);
    }
    const claimedOf = new Map<number, ClaimedDispatch[]>();
    for (const { message_id: messageId, ...dispatch } of claimed)
      claimedOf.set(messageId, [...(claimedOf.get(messageId) ?? []), dispatch]);
    for (const { index, alarm } of fresh) {
      const repeat = collapsed.get(alarm.id);
      if (repeat) {
        services.logger.info({ alarmId: alarm.id, ...repeat }, 'personal alarm counted into its repeat summary');
        continue;
      }
      const messageId = messageOf.get(alarm.id)!;
      decided[index] = {
        messageId,
        claimed: claimedOf.get(messageId) ?? [],
        message: render(services, { kind, ...alarm }),
      };
    }
    return decided;
  });
  // Counted in the process, written within a second (it never throws nor waits).
  countVolume(services, 'alarms', raised, now);
  const settled = await Promise.allSettled(
    decisions.map(async (decision, index): Promise<JobResult> => {
      const { ctx, alarmId } = jobs[index];
      if (decision === null) return undefined;
      if (typeof decision === 'number') return deliverDispatches(services, ctx, alarmAdapter, decision);
      if ('rerunAt' in decision) return decision;
      if (kind === 'alarm')
        services.logger.info(
          { alarmId, messageId: decision.messageId, recipients: decision.claimed.length },
          'personal alarm dispatched',
        );
      return deliverDispatches(services, ctx, alarmAdapter, decision.messageId, {
        fresh: true,
        claimed: decision.claimed,
        message: decision.message,
      });
    }),
  );
  return settled.map((s) => (s.status === 'fulfilled' ? s.value : { error: s.reason as unknown }));
}

interface Fresh {
  messageId: number;
  claimed: ClaimedDispatch[];
  message: LoadedMessage;
}

interface AlarmText {
  kind: Kind | 'repeats';
  text: string;
  /** A summary of repeats: how many alarms it stands for, and since when. */
  repeats?: { count: number; since: Date };
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
      if (m.kind === 'warning')
        return personalAlarmWarning(language, dispatch.channel, facts, secondsLeft(m.dispatch_at, services.now()));
      return personalAlarmMessage(language, dispatch.channel, facts, services.config.timeZone, m.repeats);
    },
  };
}

export const alarmAdapter: DispatchSourceAdapter<PersonalAlarmsDeps> = {
  source: 'alarm',
  async load(services: PersonalAlarmsDeps, messageId: number): Promise<LoadedMessage> {
    const m = await loadAlarmMessage(services.db, messageId);
    if (m.kind === 'changed') return renderChange(services, await loadChange(services.db, m.change_id!));
    const repeats =
      m.kind === 'repeats' ? { count: m.repeats ?? 0, since: new Date(m.repeats_since ?? m.dispatch_at) } : undefined;
    return render(services, { ...m, kind: m.kind, repeats });
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

/** The summary job of a window's generation of repeats (personal-alarms.repeats.ts): records it, then sends. */
export async function summariseRepeats(
  services: PersonalAlarmsDeps,
  windowId: number,
  generation: number,
  ctx: JobContext,
): Promise<JobResult> {
  const outcome = await recordRepeatSummary(services, windowId, generation, ctx);
  if (outcome === null) return undefined;
  if (typeof outcome === 'number') return deliverDispatches(services, ctx, alarmAdapter, outcome);
  return deliverDispatches(services, ctx, alarmAdapter, outcome.messageId, {
    fresh: true,
    claimed: outcome.claimed,
  });
}

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
