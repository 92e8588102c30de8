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

export async function cancelPendingJobs(executor: Db, dedupeKeys: string[], now: Date): Promise<void> {
  await executor
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: now, locked_until: null, locked_by: null })
    .where('dedupe_key', 'in', dedupeKeys)
    .where('status', '=', 'pending')
    .execute();
}

export async function findJobStateByDedupeKey(db: Db, dedupeKey: string) {
  return db
    .selectFrom('jobs')
    .select(['status', 'last_error', 'locked_until'])
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirst();
}

/** Extends the lease of every pending job held by one of these claims. */
export async function renewJobLeases(db: Db, claims: string[], lockedUntil: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ locked_until: lockedUntil })
    .where('locked_by', 'in', claims)
    .where('status', '=', 'pending')
    .execute();
}

/** When the next pending job can be claimed (it is due and its lease, if any, has run out); null: none pending. */
export async function selectNextClaimableAt(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('jobs')
    .select(sql<Date | null>`min(greatest(run_at, coalesce(locked_until, run_at)))`.as('next'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
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

export async function markJobDone(db: Db, job: ClaimedJob, now: Date): Promise<void> {
  await heldBy(db, job).set({ status: 'done', finished_at: now, locked_until: null, last_error: null }).execute();
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
