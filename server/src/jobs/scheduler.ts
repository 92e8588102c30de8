// Durable jobs: rows in `jobs`, claimed with FOR UPDATE SKIP LOCKED under a lease, so any number of instances on
// one PostgreSQL share the work, each job runs on one of them at a time, and a job whose worker died is claimed
// again when its lease runs out. Work that fell due while no instance ran is done right after the next start.
// Leases are short (3 s) and one heartbeat per worker renews every claim in hand, so when an instance dies another
// takes its jobs over within seconds. Idle workers on PostgreSQL sleep until woken by NOTIFY (job-listener.ts)
// or until the next job falls due, rather than polling.
// Handlers must be idempotent (a job can run again after a crash); they get the claim to tag the rows they touch.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/database';
import type { JobStatus } from '../db/column-types';
import type { Logger } from '../logger';
import {
  cancelPendingJobs,
  claimDueJobs,
  findJobStateByDedupeKey,
  insertJobUnlessKnown,
  markJobDone,
  markJobFailed,
  renewJobLeases,
  rescheduleJob,
  selectNextClaimableAt,
  type ClaimedJob,
} from './jobs.repository';

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
  /**
   * How long a claim is valid without a heartbeat; a dead worker's job is claimed again after it. Short (3 s) and
   * renewed by one heartbeat per worker every third of it, so a survivor takes a dead worker's jobs within seconds.
   */
  leaseMs?: number;
  /** Poll interval while no wake-up signal is connected (PGlite, or a lost LISTEN connection). */
  pollIntervalMs?: number;
  /**
   * Longest sleep while idle once a wake-up signal (LISTEN/NOTIFY, see job-listener.ts) is connected: new work
   * wakes the worker, and it wakes on its own when the next job falls due or a held lease runs out.
   */
  idleMaxMs?: number;
  /** Jobs claimed (and run concurrently) at once. */
  batchSize?: number;
}

/** Retry delay after the n-th failed attempt of a job: 1 s, 2 s, 4 s, … capped at 10 minutes. */
export const jobRetryDelayMs = (attempt: number): number => Math.min(600_000, 1_000 * 2 ** Math.max(0, attempt - 1));

export class JobScheduler {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly idleMaxMs: number;
  private readonly batchSize: number;
  /** Claims in hand (locked_by values), renewed together by the heartbeat. */
  private readonly held = new Set<string>();
  private heartbeat: NodeJS.Timeout | null = null;
  private heartbeatStopped = false;
  private signalConnected = false;
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private started = false;
  private stopRequested = false;
  private wakeRequested = false;

  constructor(
    private readonly db: Db,
    private readonly options: SchedulerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 3_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.idleMaxMs = options.idleMaxMs ?? 30_000;
    this.batchSize = options.batchSize ?? 20;
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Inserts the job unless its dedupe key exists; use the caller's transaction so the job commits with its cause. */
  async enqueue(executor: Db, job: EnqueueOptions): Promise<boolean> {
    return insertJobUnlessKnown(executor, {
      kind: job.kind,
      dedupeKey: job.dedupeKey,
      payload: job.payload ?? {},
      runAt: job.runAt ?? this.options.now(),
      maxAttempts: job.maxAttempts,
    });
  }

  /** Cancels jobs that have not finished; a cancelled job is never run (one running now completes harmlessly). */
  async cancel(executor: Db, dedupeKeys: string[]): Promise<void> {
    if (dedupeKeys.length === 0) return;
    await cancelPendingJobs(executor, dedupeKeys, this.options.now());
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

  /**
   * Runs the one job with this dedupe key now, if it is pending and no other worker holds it (an operator tool
   * that wants to say "sent" rather than "queued"). When another worker holds it (a running instance claimed it
   * first), waits up to `waitMs` for that worker to finish it. Answers what became of it, and `running` when
   * another worker still has it in hand: a failure is retried later as usual.
   */
  async runNow(
    dedupeKey: string,
    waitMs = 15_000,
  ): Promise<{ status: JobStatus | 'missing'; lastError: string | null; running: boolean }> {
    const [job] = await this.claim(1, dedupeKey);
    if (job) await this.execute(job);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const row = await findJobStateByDedupeKey(this.db, dedupeKey);
      if (!row) return { status: 'missing', lastError: null, running: false };
      const running =
        row.status === 'pending' &&
        row.locked_until !== null &&
        new Date(row.locked_until).getTime() > this.options.now().getTime();
      if (!running || Date.now() >= deadline) return { status: row.status, lastError: row.last_error, running };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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

  /**
   * Whether a wake-up signal is connected (job-listener.ts calls this). While it is, an idle worker sleeps until
   * the next job falls due instead of polling; while it is not, it polls every pollIntervalMs.
   */
  setSignalConnected(connected: boolean): void {
    this.signalConnected = connected;
    if (!connected && !this.stopRequested) this.wake();
  }

  /** Renews the lease of every claim in hand (the heartbeat; public so tests can beat by hand under a fake clock). */
  async renewLeases(): Promise<void> {
    if (this.held.size === 0 || this.heartbeatStopped) return;
    await renewJobLeases(this.db, [...this.held], new Date(this.options.now().getTime() + this.leaseMs));
  }

  /**
   * Fault simulation: stops the heartbeat as if the process had died while its handlers keep running, so another
   * worker takes the jobs over once their leases run out (tests and the fault scenarios).
   */
  stopHeartbeat(): void {
    this.heartbeatStopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private hold(claim: string): void {
    this.held.add(claim);
    if (this.heartbeat || this.heartbeatStopped) return;
    this.heartbeat = setInterval(
      () =>
        void this.renewLeases().catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'job lease renewal failed'),
        ),
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    this.heartbeat.unref();
  }

  private release(claim: string): void {
    this.held.delete(claim);
    if (this.held.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  /** How long to sleep after a poll that found nothing to do. */
  private async idleDelay(): Promise<number> {
    if (!this.signalConnected) return this.pollIntervalMs;
    const nextAt = await selectNextClaimableAt(this.db);
    const next = nextAt ? nextAt.getTime() : null;
    if (next === null) return this.idleMaxMs;
    return Math.min(this.idleMaxMs, Math.max(this.pollIntervalMs, next - this.options.now().getTime() + 10));
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.loop = this.runDueJobs()
        .then(async (ran) => (this.wakeRequested || ran >= 10_000 ? 0 : await this.idleDelay()))
        .catch((error: unknown) => {
          this.options.logger.error({ err: error }, 'job poll failed');
          return this.pollIntervalMs;
        })
        .then((delay) => {
          this.loop = null;
          if (!this.stopRequested) this.schedule(this.wakeRequested ? 0 : delay);
          this.wakeRequested = false;
        });
    }, ms);
  }

  private async claim(count: number, dedupeKey?: string): Promise<ClaimedJob[]> {
    const now = this.options.now();
    const claim = `${this.worker}:${randomUUID()}`;
    return claimDueJobs(this.db, {
      prefix: claim,
      now,
      lockedUntil: new Date(now.getTime() + this.leaseMs),
      count,
      dedupeKey,
    });
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    this.hold(job.locked_by);
    try {
      await this.run(job, handler);
    } finally {
      this.release(job.locked_by);
    }
  }

  private async run(job: ClaimedJob, handler: JobHandler | undefined): Promise<void> {
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
      await this.fail(job, error);
      return;
    }
    if (result && 'rerunAt' in result) await rescheduleJob(this.db, job, result.rerunAt);
    else await markJobDone(this.db, job, this.options.now());
  }

  private async fail(job: ClaimedJob, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
    const gaveUp = job.attempts >= job.max_attempts;
    this.options.logger[gaveUp ? 'error' : 'warn'](
      { jobId: job.id, kind: job.kind, attempt: job.attempts, err: error },
      gaveUp ? 'job failed for good' : 'job failed, will retry',
    );
    const now = this.options.now();
    await markJobFailed(this.db, job, {
      now,
      retryAt: gaveUp ? null : new Date(now.getTime() + jobRetryDelayMs(job.attempts)),
      error: message,
    });
  }
}
