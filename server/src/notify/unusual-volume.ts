// A tenant's administrators are told of unusual volume. Whoever is in danger is never refused, so abuse of alarms
// and external messages is bounded in the fan-out (repeats collapse: modules/personal-alarms/personal-alarms.repeats.ts)
// and watched: alarms raised and external messages sent are counted per tenant and hour, and an hour whose count
// reaches max(floor, factor × the tenant's usual count an hour over the week before) makes one notice: a row in
// tenant_volume_notices (the record; the operator tool lists them) and a durable job that emails each of the
// tenant's administrators. At most one notice per tenant, kind and hour, however many instances count at once
// (the row is unique; only the call that recorded it enqueues the email).
// Counting never holds up what is counted: it runs after the alarm or message is stored, and a failure is logged.
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
}

const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);

/** The count from which an hour is unusual: the floor, or the factor times the usual count, whichever is higher. */
export function unusualFrom(config: VolumeDeps['config'], kind: VolumeKind, usual: number): number {
  const v = config.fanOut.unusualVolume;
  return Math.max(kind === 'alarms' ? v.alarmsPerHour : v.messagesPerHour, Math.ceil(v.factor * usual));
}

/**
 * Counts alarms raised or messages sent (after they are stored) and records the hour's notice when a count turns
 * unusual, with the job that emails it. Never throws: a failure is logged, and what was counted is not held up.
 */
export async function countVolume(
  services: VolumeDeps,
  kind: VolumeKind,
  tenants: Map<number, number>,
  now: Date,
): Promise<void> {
  if (tenants.size === 0) return;
  try {
    const hour = hourOf(now);
    const counts = [...tenants].map(([tenantId, count]) => ({ tenantId, kind, count }));
    for (const row of await addVolume(services.db, hour, counts)) {
      if (row.noticed || row.count < unusualFrom(services.config, kind, row.usual)) continue;
      await services.db.transaction().execute(async (trx) => {
        const id = await insertVolumeNotice(trx, {
          tenantId: row.tenant_id,
          kind,
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
          { tenantId: row.tenant_id, kind, count: row.count, usual: row.usual, noticeId: id },
          'unusual volume: the tenant administrators are told',
        );
      });
      services.jobs.wake();
    }
  } catch (error) {
    services.logger.error({ err: error, kind }, 'counting the volume failed');
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
