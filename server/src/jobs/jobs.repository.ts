// The statements of the durable scheduler (scheduler.ts): enqueue, cancel, claim under a lease, renew the leases,
// and write each run's outcome, always on the claim that ran it.
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** A job as a claim holds it. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  locked_by: string;
}

/** Inserts the job unless its dedupe key exists; answers whether it was inserted. */
export async function insertJobUnlessKnown(
  executor: Db,
  job: { kind: string; dedupeKey: string; payload: Record<string, unknown>; runAt: Date; maxAttempts?: number },
): Promise<boolean> {
  const result = await executor
    .insertInto('jobs')
    .values({
      kind: job.kind,
      dedupe_key: job.dedupeKey,
      payload: JSON.stringify(job.payload),
      run_at: job.runAt,
      ...(job.maxAttempts ? { max_attempts: job.maxAttempts } : {}),
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Cancels the pending jobs with these keys (their rows locked in id order, see markJobsDone). */
export async function cancelPendingJobs(executor: Db, dedupeKeys: string[], now: Date): Promise<void> {
  await sql`
    update jobs set status = 'cancelled', finished_at = ${now}, locked_until = null, locked_by = null
     where id in (select id from jobs where dedupe_key = any(${dedupeKeys}::text[]) and status = 'pending'
                   order by id for update)`.execute(executor);
}

export async function findJobStateByDedupeKey(db: Db, dedupeKey: string) {
  return db
    .selectFrom('jobs')
    .select(['status', 'last_error', 'locked_until'])
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirst();
}

/**
 * Extends the lease of every pending job held by one of these claims. A row locked at the moment (its outcome is
 * being written) is skipped rather than waited for, so the heartbeat never deadlocks with a completion.
 */
export async function renewJobLeases(db: Db, claims: string[], lockedUntil: Date): Promise<void> {
  await sql`
    update jobs set locked_until = ${lockedUntil}
     where id in (select id from jobs where locked_by = any(${claims}::text[]) and status = 'pending'
                   for update skip locked)`.execute(db);
}

/**
 * The pending jobs that become claimable by `until` (due, and any lease on them run out), earliest first, with
 * when: the timers a scheduler arms.
 */
export async function selectUpcomingJobs(db: Db, until: Date, limit: number): Promise<{ id: number; at: Date }[]> {
  const { rows } = await sql<{ id: number; at: Date }>`
    select id, greatest(run_at, coalesce(locked_until, run_at)) as at from jobs
     where status = 'pending' and run_at <= ${until} and (locked_until is null or locked_until <= ${until})
     order by run_at, id
     limit ${limit}`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), at: new Date(r.at) }));
}

/**
 * Claims up to `count` due jobs not held by a live lease (the one with `dedupeKey` only, when given), in run_at
 * order, with FOR UPDATE SKIP LOCKED: each gets the lease, a claim of its own (`claim:id`) and one more attempt.
 */
export async function claimDueJobs(
  db: Db,
  claim: { prefix: string; now: Date; lockedUntil: Date; count: number; dedupeKey?: string },
): Promise<ClaimedJob[]> {
  const { now, dedupeKey } = claim;
  const only = dedupeKey === undefined ? sql`` : sql`and dedupe_key = ${dedupeKey}`;
  const { rows } = await sql<ClaimedJob>`
    update jobs
       set locked_until = ${claim.lockedUntil}, locked_by = ${claim.prefix} || ':' || id, attempts = attempts + 1
     where id in (select id from jobs
                   where status = 'pending' and run_at <= ${now} and (locked_until is null or locked_until <= ${now}) ${only}
                   order by run_at, id
                   limit ${claim.count}
                   for update skip locked)
    returning id, kind, payload, attempts, max_attempts, locked_by`.execute(db);
  return rows;
}

/** The job as this claim still holds it (a job claimed again since is no longer this claim's). */
const heldBy = (db: Db, job: ClaimedJob) =>
  db
    .updateTable('jobs')
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .where('status', '=', 'pending');

/** The handler asked to run again at `runAt`: not a failure, attempts start over. */
export async function rescheduleJob(db: Db, job: ClaimedJob, runAt: Date): Promise<void> {
  await heldBy(db, job)
    .set({ run_at: runAt, attempts: 0, locked_until: null, locked_by: null, last_error: null })
    .execute();
}

/**
 * Jobs done, each only if its claim still holds it; one statement for many (the scheduler groups completions). The
 * rows are locked in id order, as every statement that writes several jobs does, so two never deadlock.
 */
export async function markJobsDone(db: Db, jobs: ClaimedJob[], now: Date): Promise<void> {
  if (jobs.length === 0) return;
  await sql`
    update jobs j set status = 'done', finished_at = ${now}, locked_until = null, last_error = null
      from (select j2.id from jobs j2
              join unnest(${jobs.map((j) => j.id)}::bigint[], ${jobs.map((j) => j.locked_by)}::text[]) as c(id, claim)
                on j2.id = c.id and j2.locked_by = c.claim
             where j2.status = 'pending'
             order by j2.id
               for update of j2) as held
     where j.id = held.id`.execute(db);
}

/** A failed run: 'failed' for good when `retryAt` is null, else pending again at `retryAt`. */
export async function markJobFailed(
  db: Db,
  job: ClaimedJob,
  outcome: { now: Date; retryAt: Date | null; error: string },
): Promise<void> {
  await heldBy(db, job)
    .set(
      outcome.retryAt === null
        ? { status: 'failed', finished_at: outcome.now, locked_until: null, last_error: outcome.error }
        : { run_at: outcome.retryAt, locked_until: null, locked_by: null, last_error: outcome.error },
    )
    .execute();
}

/**
 * The schedulers listening for jobs on this database, by the application name of their wake-up connections
 * (`prefix` + a scheduler's peer id), sorted: the instances that share the jobs' timers. PostgreSQL drops a dead
 * instance's connections at once (its socket closes with the process), so a killed instance leaves the list.
 */
export async function selectListeningPeers(db: Db, prefix: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select application_name as name from pg_stat_activity
     where datname = current_database() and application_name like ${`${prefix}%`}
     order by application_name`.execute(db);
  return rows.map((r) => r.name.slice(prefix.length));
}
