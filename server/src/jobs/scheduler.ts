// Durable jobs: rows in `jobs`, claimed with FOR UPDATE SKIP LOCKED under a lease, so any number of instances on
// one PostgreSQL share the work, each job runs on one of them at a time, and a job whose worker died is claimed
// again when its lease runs out. Work that fell due while no instance ran is done right after the next start.
// Handlers must be idempotent (a job can run again after a crash); they get the claim to tag the rows they touch.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/types';
import type { Logger } from '../logger';

export interface JobContext {
  jobId: number;
  /** Unique per claim of this job: rows tagged with an older claim were abandoned by a stopped worker. */
  claim: string;
  attempt: number;
  now(): Date;
  /** True once stop() was called: long handlers return early ({ rerunAt: now }) so shutdown is quick. */
  stopping(): boolean;
}

/** void: done. rerunAt: run again then (not counted as a failure). A throw: retried with backoff. */
export type JobResult = void | { rerunAt: Date };
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<JobResult>;

export interface EnqueueOptions {
  kind: string;
  /** Unique for ever: a second job with the same key is not enqueued (so enqueueing is idempotent). */
  dedupeKey: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
}

export interface SchedulerOptions {
  now: () => Date;
  logger: Logger;
  /** How long a claim is valid without a heartbeat; a dead worker's job is claimed again after it. */
  leaseMs?: number;
  pollIntervalMs?: number;
  /** Jobs claimed (and run concurrently) at once. */
  batchSize?: number;
}

/** Retry delay after the n-th failed attempt of a job: 1 s, 2 s, 4 s, … capped at 10 minutes. */
export const jobRetryDelayMs = (attempt: number): number => Math.min(600_000, 1_000 * 2 ** Math.max(0, attempt - 1));

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  locked_by: string;
}

export class JobScheduler {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private started = false;
  private stopRequested = false;
  private wakeRequested = false;

  constructor(private readonly db: Db, private readonly options: SchedulerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 20;
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Inserts the job unless its dedupe key exists; use the caller's transaction so the job commits with its cause. */
  async enqueue(executor: Kysely<Database>, job: EnqueueOptions): Promise<boolean> {
    const result = await executor
      .insertInto('jobs')
      .values({
        kind: job.kind,
        dedupe_key: job.dedupeKey,
        payload: JSON.stringify(job.payload ?? {}),
        run_at: job.runAt ?? this.options.now(),
        ...(job.maxAttempts ? { max_attempts: job.maxAttempts } : {}),
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Cancels jobs that have not finished; a cancelled job is never run (one running now completes harmlessly). */
  async cancel(executor: Kysely<Database>, dedupeKeys: string[]): Promise<void> {
    if (dedupeKeys.length === 0) return;
    await executor
      .updateTable('jobs')
      .set({ status: 'cancelled', finished_at: this.options.now(), locked_until: null, locked_by: null })
      .where('dedupe_key', 'in', dedupeKeys)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Runs every job that is due now (tests call this instead of starting the timer). Returns how many ran. */
  async runDueJobs(limit = 10_000): Promise<number> {
    let ran = 0;
    while (ran < limit && !(this.started && this.stopRequested)) {
      const jobs = await this.claim(Math.min(this.batchSize, limit - ran));
      if (jobs.length === 0) break;
      await Promise.all(jobs.map((job) => this.execute(job)));
      ran += jobs.length;
    }
    return ran;
  }

  /** Polls for due jobs until stop(). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopRequested = false;
    this.schedule(0);
  }

  /** Finishes the jobs in hand (handlers see stopping() and return early), then stops polling. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.loop;
    this.started = false;
  }

  /** Poll now instead of at the next interval (after enqueueing work that is due at once). */
  wake(): void {
    if (!this.started || this.stopRequested) return;
    if (this.loop) {
      this.wakeRequested = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.loop = this.runDueJobs()
        .then(() => undefined)
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'job poll failed'))
        .finally(() => {
          this.loop = null;
          if (!this.stopRequested) this.schedule(this.wakeRequested ? 0 : this.pollIntervalMs);
          this.wakeRequested = false;
        });
    }, ms);
  }

  private async claim(count: number): Promise<ClaimedJob[]> {
    const now = this.options.now();
    const claim = `${this.worker}:${randomUUID()}`;
    const { rows } = await sql<ClaimedJob>`
      update jobs
         set locked_until = ${new Date(now.getTime() + this.leaseMs)}, locked_by = ${claim} || ':' || id, attempts = attempts + 1
       where id in (select id from jobs
                     where status = 'pending' and run_at <= ${now} and (locked_until is null or locked_until <= ${now})
                     order by run_at, id
                     limit ${count}
                     for update skip locked)
      returning id, kind, payload, attempts, max_attempts, locked_by`.execute(this.db);
    return rows;
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const heartbeat = setInterval(() => void this.extendLease(job).catch(() => undefined), Math.max(1_000, this.leaseMs / 3));
    heartbeat.unref();
    let result: JobResult;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      result = await handler(job.payload, {
        jobId: job.id,
        claim: job.locked_by,
        attempt: job.attempts,
        now: this.options.now,
        stopping: () => this.started && this.stopRequested,
      });
    } catch (error) {
      clearInterval(heartbeat);
      await this.fail(job, error);
      return;
    }
    clearInterval(heartbeat);
    const mine = this.db.updateTable('jobs').where('id', '=', job.id).where('locked_by', '=', job.locked_by).where('status', '=', 'pending');
    if (result && 'rerunAt' in result) {
      await mine.set({ run_at: result.rerunAt, attempts: 0, locked_until: null, locked_by: null, last_error: null }).execute();
    } else {
      await mine.set({ status: 'done', finished_at: this.options.now(), locked_until: null, last_error: null }).execute();
    }
  }

  private async fail(job: ClaimedJob, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
    const gaveUp = job.attempts >= job.max_attempts;
    this.options.logger[gaveUp ? 'error' : 'warn']({ jobId: job.id, kind: job.kind, attempt: job.attempts, err: error }, gaveUp ? 'job failed for good' : 'job failed, will retry');
    const now = this.options.now();
    await this.db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('locked_by', '=', job.locked_by)
      .where('status', '=', 'pending')
      .set(
        gaveUp
          ? { status: 'failed', finished_at: now, locked_until: null, last_error: message }
          : { run_at: new Date(now.getTime() + jobRetryDelayMs(job.attempts)), locked_until: null, locked_by: null, last_error: message },
      )
      .execute();
  }

  private async extendLease(job: ClaimedJob): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ locked_until: new Date(this.options.now().getTime() + this.leaseMs) })
      .where('id', '=', job.id)
      .where('locked_by', '=', job.locked_by)
      .execute();
  }
}
