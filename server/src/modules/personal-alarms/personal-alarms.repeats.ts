// Repeats collapse in the fan-out. Whoever presses panic is never refused: every alarm is accepted and goes off. But
// alarms of one owner to the same recipients (the same recipient users and groups) within a short window after one
// was delivered reach nobody on their own: each is recorded (a message of its own, without dispatches) and counted
// in its window, and one summary (kind 'repeats': how many, since when, with the latest alarm's text and location)
// goes to those recipients when the window ends. So a pressed-and-pressed button, or a script creating alarms,
// costs its recipients one delivery per window, not one per alarm.
//
// Nothing is lost at the window's edge: the decision (deliver, or collapse into this generation of the window) is
// taken under the window's row lock, in the transaction that records the alarm, and the collapse enqueues the
// summary's durable job (due when the window ends) in that same transaction. The summary job takes the same lock,
// sends what was counted into its generation and opens the next one; an alarm that comes after it sees the next
// generation and enqueues that generation's summary. A window whose summary is overdue (its job not yet run) still
// takes repeats: the due job sends them with the rest. A job survives a restart, and runs once per generation.
import type { ClaimedDispatch } from '../../notify/deliveries';
import type { Executor } from '../../db/database';
import type { JobContext } from '../../jobs/scheduler';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';
import {
  findCollapsedRepeats,
  findRepeatSummary,
  lockRepeatWindow,
  lockRepeatWindows,
  reopenRepeatWindow,
  writeRepeatWindows,
  type RepeatWindow,
} from './personal-alarms.repeats.repository';
import { insertAlarmMessage, insertClaimedAlarmDispatches } from './personal-alarms.delivery.repository';

export const alarmRepeatsJob = 'alarm.repeats';

/** Where a collapsed alarm is counted: its window and generation (whose summary job is enqueued). */
export interface Collapsed {
  windowId: number;
  generation: number;
}

const windowMs = (services: PersonalAlarmsDeps) => services.config.fanOut.alarmRepeatWindowSeconds * 1_000;

/**
 * Decides, for alarms about to go off (in the transaction that records them), which are repeats: answers each
 * collapsed alarm's window and generation; the others are delivered, and each opens its window anew.
 */
export async function collapseRepeats(
  services: PersonalAlarmsDeps,
  trx: Executor,
  alarms: { alarmId: number; tenantId: number; ownerId: number }[],
  now: Date,
): Promise<Map<number, Collapsed>> {
  const collapsed = new Map<number, Collapsed>();
  const window = windowMs(services);
  if (window <= 0 || alarms.length === 0) return collapsed;
  const windowOf = await lockRepeatWindows(trx, alarms);
  const changed = new Set<RepeatWindow>();
  const summaries = new Map<string, Collapsed & { at: Date }>();
  for (const { alarmId } of [...alarms].sort((a, b) => a.alarmId - b.alarmId)) {
    const w = windowOf.get(alarmId)!;
    changed.add(w);
    if (w.repeats > 0 || w.ends_at > now) {
      w.repeats += 1;
      collapsed.set(alarmId, { windowId: w.id, generation: w.generation });
      summaries.set(`${w.id}:${w.generation}`, { windowId: w.id, generation: w.generation, at: w.ends_at });
    } else w.ends_at = new Date(now.getTime() + window);
  }
  await writeRepeatWindows(trx, [...changed]);
  for (const s of summaries.values())
    await services.jobs.enqueue(trx, {
      kind: alarmRepeatsJob,
      dedupeKey: `alarm-repeats:${s.windowId}:g${s.generation}`,
      payload: { windowId: s.windowId, generation: s.generation },
      runAt: s.at,
      maxAttempts: 50,
    });
  return collapsed;
}

/** A summary just recorded: its message and the dispatches the job holds. */
export interface RecordedSummary {
  messageId: number;
  claimed: ClaimedDispatch[];
}

/**
 * The summary job's transaction for a window's generation: records the summary (kind 'repeats', how many and since
 * when, about the latest collapsed alarm) with its dispatches to that alarm's recipients, claimed by the job, and
 * opens the window's next generation. Answers the summary to send, the id of one recorded before (run again after a
 * crash: send what is left), or null (nothing to send).
 */
export async function recordRepeatSummary(
  services: PersonalAlarmsDeps,
  windowId: number,
  generation: number,
  ctx: JobContext,
): Promise<number | RecordedSummary | null> {
  const now = ctx.now();
  return services.db.transaction().execute(async (trx): Promise<number | RecordedSummary | null> => {
    const window = await lockRepeatWindow(trx, windowId);
    if (!window) return null;
    const existing = await findRepeatSummary(trx, windowId, generation);
    if (existing) return existing.id;
    if (window.generation !== generation) return null;
    const repeats = await findCollapsedRepeats(trx, windowId, generation);
    await reopenRepeatWindow(trx, windowId, generation, new Date(now.getTime() + windowMs(services)));
    // Every alarm counted here was deleted since (with its tenant or owner): nothing to say.
    if (repeats.length === 0) return null;
    const latest = repeats.at(-1)!;
    const message = await insertAlarmMessage(trx, {
      tenant_id: latest.tenant_id,
      alarm_id: latest.alarm_id,
      kind: 'repeats',
      version: latest.version,
      created_at: now,
      repeat_window_id: windowId,
      repeat_generation: generation,
      repeats: repeats.length,
      repeats_since: repeats[0].created_at,
    });
    const claimed = await insertClaimedAlarmDispatches(
      trx,
      [
        {
          messageId: message.id,
          alarmId: latest.alarm_id,
          tenantId: latest.tenant_id,
          ownerId: latest.user_id,
          kind: 'alarm',
          claim: ctx.claim,
        },
      ],
      now,
    );
    services.logger.info(
      { windowId, generation, repeats: repeats.length, recipients: claimed.length },
      'personal alarm repeats summarised',
    );
    return { messageId: message.id, claimed };
  });
}
