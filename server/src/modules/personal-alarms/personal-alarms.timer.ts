// The timer of an active alarm is two durable jobs made for the alarm's current version: the alarm at dispatchAt
// and, with oneMinuteWarning, the owner's warning a minute before (at once when less than a minute is left).
// Moving or stopping the timer cancels them and bumps the version, so a job already claimed does nothing.
import type { Db } from '../../db/database';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';

export const alarmFireJob = 'alarm.fire';
export const alarmWarnJob = 'alarm.warn';
export const warningLeadMs = 60_000;

interface Armed {
  id: number;
  version: number;
  dispatch_at: Date;
  one_minute_warning: boolean;
}

const keys = (alarm: { id: number; version: number }) => ({
  fire: `alarm:${alarm.id}:v${alarm.version}:fire`,
  warn: `alarm:${alarm.id}:v${alarm.version}:warn`,
});

export async function armTimer(services: PersonalAlarmsDeps, trx: Db, alarm: Armed): Promise<void> {
  const { fire, warn } = keys(alarm);
  const payload = { alarmId: alarm.id, version: alarm.version };
  await services.jobs.enqueue(trx, {
    kind: alarmFireJob,
    dedupeKey: fire,
    payload,
    runAt: alarm.dispatch_at,
    maxAttempts: 50,
  });
  const now = services.now();
  if (alarm.one_minute_warning && alarm.dispatch_at > now) {
    const warnAt = new Date(Math.max(now.getTime(), alarm.dispatch_at.getTime() - warningLeadMs));
    await services.jobs.enqueue(trx, { kind: alarmWarnJob, dedupeKey: warn, payload, runAt: warnAt, maxAttempts: 5 });
  }
}

export async function disarmTimer(
  services: PersonalAlarmsDeps,
  trx: Db,
  alarm: { id: number; version: number },
): Promise<void> {
  const { fire, warn } = keys(alarm);
  await services.jobs.cancel(trx, [fire, warn]);
}
