// Housekeeping on the durable scheduler: once an hour across all instances (one job per hour, deduplicated by
// its hour), rows nothing needs any more are removed, one small function per table so each can follow its
// table's own rules. Rows removed are counted in core_housekeeping_rows_removed_total{table}.
import type { Db } from '../db/database';
import { housekeepingRemoved } from '../metrics/metrics';
import type { Logger } from '../logger';
import type { JobContext, JobScheduler } from './scheduler';
import { dayMs, hourMs, purges, type PurgeContext } from './housekeeping.repository';

export const housekeepingJob = 'housekeeping';

/** What housekeeping uses of the process's services. */
export interface HousekeepingDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  jobs: JobScheduler;
  config: { runtime: { jobRetentionDays: number; securityEventRetentionDays: number } };
}

// The purges, one per table, are the repository's; tests call them one by one.
export * from './housekeeping.repository';

/** Runs every purge (each on its own: one failing does not stop the others) and counts what went. */
export async function runHousekeeping(services: HousekeepingDeps): Promise<Record<string, number>> {
  const ctx: PurgeContext = {
    db: services.db,
    now: services.now(),
    jobRetentionMs: services.config.runtime.jobRetentionDays * dayMs,
    securityEventRetentionMs: services.config.runtime.securityEventRetentionDays * dayMs,
  };
  const counts: Record<string, number> = {};
  let failure: unknown = null;
  for (const [table, purge] of Object.entries(purges)) {
    try {
      counts[table] = await purge(ctx);
      housekeepingRemoved.inc({ table }, counts[table]);
    } catch (error) {
      failure ??= error;
      services.logger.warn({ table, err: error }, 'housekeeping: purge failed');
    }
  }
  services.logger.info({ removed: counts }, 'housekeeping done');
  if (failure) throw failure;
  return counts;
}

const hourStart = (at: Date) => new Date(Math.floor(at.getTime() / hourMs) * hourMs);
const hourKey = (start: Date) => `${housekeepingJob}:${start.toISOString()}`;

/** Enqueues this hour's housekeeping (a no-op when any instance already has); called at start-up. */
export async function scheduleHousekeeping(services: Pick<HousekeepingDeps, 'db' | 'now' | 'jobs'>): Promise<void> {
  const start = hourStart(services.now());
  await services.jobs.enqueue(services.db, {
    kind: housekeepingJob,
    dedupeKey: hourKey(start),
    runAt: start,
    maxAttempts: 3,
  });
}

/** The job: this hour's housekeeping, then the next hour's job (so the chain goes on while any instance runs). */
export async function housekeepingHandler(services: HousekeepingDeps, ctx: JobContext): Promise<void> {
  const next = new Date(hourStart(ctx.now()).getTime() + hourMs);
  await services.jobs.enqueue(services.db, {
    kind: housekeepingJob,
    dedupeKey: hourKey(next),
    runAt: next,
    maxAttempts: 3,
  });
  await runHousekeeping(services);
}
