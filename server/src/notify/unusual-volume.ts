// A tenant's administrators are told of unusual volume. Whoever is in danger is never refused, so abuse of alarms
// and external messages is bounded in the fan-out (repeats collapse: modules/personal-alarms/personal-alarms.repeats.ts)
// and watched: alarms raised and external messages sent are counted per tenant and hour, and an hour whose count
// reaches max(floor, factor × the tenant's usual count an hour over the week before) makes one notice: a row in
// tenant_volume_notices (the record; the operator tool lists them) and a durable job that emails each of the
// tenant's administrators. At most one notice per tenant, kind and hour, however many instances count at once
// (the row is unique; only the call that recorded it enqueues the email).
// Counting never holds up what is counted: counts gather in the process and are written once a second, after the
// alarms or messages are stored, and a failure is logged.
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { JobContext, JobResult, JobScheduler } from '../jobs/scheduler';
import type { Logger } from '../logger';
import { composeEmail } from '../messages/email';
import { dateTime } from '../messages/formats';
import { chooseLanguage } from '../messages/languages';
import { t } from '../messages/render';
import type { Notifier } from '../notify/notifier';
import {
  addVolume,
  findVolumeNotice,
  insertVolumeNotice,
  markVolumeNoticeSent,
  selectNoticeRecipients,
  type VolumeKind,
} from './unusual-volume.repository';

export const volumeNoticeJob = 'volume.notice';

export interface VolumeDeps {
  config: Pick<Config, 'fanOut' | 'region' | 'timeZone'>;
  db: Db;
  jobs: JobScheduler;
  logger: Logger;
  notifier: Notifier;
  /** The clock. */
  now: () => Date;
}

const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);

/** The count from which an hour is unusual: the floor, or the factor times the usual count, whichever is higher. */
export function unusualFrom(config: VolumeDeps['config'], kind: VolumeKind, usual: number): number {
  const v = config.fanOut.unusualVolume;
  return Math.max(kind === 'alarms' ? v.alarmsPerHour : v.messagesPerHour, Math.ceil(v.factor * usual));
}

/** How long counts gather in the process before one statement adds them (per tenant, kind and hour). */
export const volumeFlushMs = 1_000;

interface Pending {
  services: VolumeDeps;
  counts: Map<string, { tenantId: number; kind: VolumeKind; hour: Date; count: number }>;
  timer: NodeJS.Timeout | null;
}
/** The counts not yet written, per database: many alarm batches a second make one statement, not one each. */
const pendingOf = new WeakMap<Db, Pending>();

/**
 * Counts alarms raised or messages sent (after they are stored): gathered in the process and written within
 * volumeFlushMs, so the alarm path never waits on the tenant's counter row (every batch of every instance would
 * otherwise update that one row). Counts of an instance that dies in that second are lost: a notice is a hint, and
 * the next counts carry the hour on. Never throws.
 */
export function countVolume(services: VolumeDeps, kind: VolumeKind, tenants: Map<number, number>, now: Date): void {
  if (tenants.size === 0) return;
  const pending = pendingOf.get(services.db) ?? { services, counts: new Map(), timer: null };
  pendingOf.set(services.db, pending);
  pending.services = services;
  const hour = hourOf(now);
  for (const [tenantId, count] of tenants) {
    const key = `${tenantId}:${kind}:${hour.getTime()}`;
    const entry = pending.counts.get(key) ?? { tenantId, kind, hour, count: 0 };
    entry.count += count;
    pending.counts.set(key, entry);
  }
  if (pending.timer) return;
  pending.timer = setTimeout(() => void flushVolume(services), volumeFlushMs);
  pending.timer.unref();
}

/** Writes the gathered counts now (the timer does it within volumeFlushMs; tests and shutdown call it). */
export async function flushVolume(services: VolumeDeps): Promise<void> {
  const pending = pendingOf.get(services.db);
  if (!pending || pending.counts.size === 0) return;
  if (pending.timer) clearTimeout(pending.timer);
  pending.timer = null;
  const counts = [...pending.counts.values()];
  pending.counts.clear();
  await recordVolume(pending.services, counts, pending.services.now());
}

/**
 * Adds counts to their hours and records each hour's notice when its count turns unusual, with the job that emails
 * it: what several instances may do at once (the notice row is unique, and only the call that recorded it enqueues
 * the email). Never throws: a failure is logged.
 */
export async function recordVolume(
  services: VolumeDeps,
  counts: { tenantId: number; kind: VolumeKind; hour: Date; count: number }[],
  now: Date,
): Promise<void> {
  const hours = new Map<number, typeof counts>();
  for (const c of counts) hours.set(c.hour.getTime(), [...(hours.get(c.hour.getTime()) ?? []), c]);
  for (const [at, group] of hours) {
    const hour = new Date(at);
    try {
      for (const row of await addVolume(services.db, hour, group)) {
        if (row.noticed || row.count < unusualFrom(services.config, row.kind, row.usual)) continue;
        await services.db.transaction().execute(async (trx) => {
          const id = await insertVolumeNotice(trx, {
            tenantId: row.tenant_id,
            kind: row.kind,
            hour,
            count: row.count,
            usual: row.usual,
            now,
          });
          if (id === null) return;
          await services.jobs.enqueue(trx, {
            kind: volumeNoticeJob,
            dedupeKey: `volume-notice:${id}`,
            payload: { noticeId: id },
            runAt: now,
          });
          services.logger.warn(
            { tenantId: row.tenant_id, kind: row.kind, count: row.count, usual: row.usual, noticeId: id },
            'unusual volume: the tenant administrators are told',
          );
        });
        services.jobs.wake();
      }
    } catch (error) {
      services.logger.error({ err: error }, 'counting the volume failed');
    }
  }
}

/** The notice's job: an email to each of the tenant's administrators, in their language. */
export async function sendVolumeNotice(services: VolumeDeps, noticeId: number, ctx: JobContext): Promise<JobResult> {
  const notice = await findVolumeNotice(services.db, noticeId);
  if (!notice || notice.sent_at !== null) return undefined;
  const admins = await selectNoticeRecipients(services.db, notice.tenant_id);
  for (const admin of admins) {
    const language = chooseLanguage(admin.preferred_language);
    const subject = t(language, 'unusualVolume.subject', { organisation: notice.organisation });
    const facts = {
      count: notice.count,
      usual: Math.round(notice.usual * 10) / 10,
      from: dateTime(language, new Date(notice.hour), services.config.timeZone),
    };
    const lines = [
      t(language, notice.kind === 'alarms' ? 'unusualVolume.alarms' : 'unusualVolume.messages', facts),
      t(language, notice.kind === 'alarms' ? 'unusualVolume.alarmsAdvice' : 'unusualVolume.messagesAdvice'),
    ];
    await services.notifier.email.send({
      to: admin.email,
      ...composeEmail(language, subject, [{ text: lines.join('\n') }]),
      idempotencyKey: `${services.config.region}.volume-notice-${noticeId}.${admin.id}`,
    });
  }
  await markVolumeNoticeSent(services.db, noticeId, ctx.now(), admins.length);
  return undefined;
}
