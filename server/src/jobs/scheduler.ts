// Durable jobs: rows in `jobs`, claimed with FOR UPDATE SKIP LOCKED under a lease, so any number of instances on
// one PostgreSQL share the work, each job runs on one of them at a time, and a job whose worker died is claimed
// again when its lease runs out. Work that fell due while no instance ran is done right after the next start.
// Leases are short (3 s) and one heartbeat per worker renews every claim in hand, so when an instance dies another
// takes its jobs over within seconds.
// On time: every instance reads the jobs that fall due within the next `lookaheadMs` (and the leases that run out
// then) and arms an in-process timer for each; when one fires the instance claims what is due at once, so a job
// starts at its time rather than at the next poll. The timers only wake: the claim in the database decides who
// runs a job, so each runs once however many instances armed it. New work wakes idle instances by NOTIFY
// (job-listener.ts) or, without it, by polling every `pollIntervalMs`. Claimed jobs run side by side up to
// `concurrency`, claimed again as they finish (no batch waits for its slowest job); kinds registered with
// registerBatch get the jobs claimed together in one call, and completions are written together.
// Several instances share the timers rather than all claiming every job at its time: each instance listening for
// wake-ups names its connection (job-listener.ts), and every reading of the upcoming jobs also reads who listens;
// a job is its own for the instance of rank (job id mod the number of listeners), which arms its timer at the due
// time, while the others arm theirs as a backup, rounded up to the next `backupDelayMs` after it: their timers of
// one second fire together and cost one claim, not one each, and if the job's instance died they take it over
// within two `backupDelayMs` (the next reading no longer counts the dead instance). The claim still decides.
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
  markJobFailed,
  markJobsDone,
  renewJobLeases,
  rescheduleJob,
  selectListeningPeers,
  selectUpcomingJobs,
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
/** One claimed job of a batch. */
export interface BatchJob {
  payload: Record<string, unknown>;
  ctx: JobContext;
}
/** A batch job's outcome: as a JobResult, or `{ error }` for one job that failed (retried with backoff). */
export type BatchJobResult = JobResult | { error: unknown };
/**
 * The jobs of one kind claimed together; answers each job's outcome in the same order. A throw fails every job of
 * the batch (each retried with backoff).
 */
export type BatchJobHandler = (jobs: BatchJob[]) => Promise<BatchJobResult[]>;

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
   * Longest time between two readings of the upcoming jobs while a wake-up signal (LISTEN/NOTIFY, see
   * job-listener.ts) is connected; new work wakes the worker, and the timers armed from the last reading wake it
   * when a job falls due or a held lease runs out.
   */
  idleMaxMs?: number;
  /** Jobs claimed at once (one statement), and the most a batch handler gets in one call. */
  batchSize?: number;
  /** Jobs running at once in a started scheduler. */
  concurrency?: number;
  /** Jobs falling due within this time are armed as in-process timers. */
  lookaheadMs?: number;
  /** The most timers armed at once (the earliest jobs first; the rest are read again later). */
  maxArmed?: number;
  /** Shortest time between two readings of the upcoming jobs asked for by wake() (several wakes make one). */
  planMinIntervalMs?: number;
  /** Told each time a timer is armed for a job, with when it fires (tests: a job ran because it was armed). */
  onArm?: (jobId: number, at: Date) => void;
  /**
   * How late an instance claims, as a backup, a job that is another listening instance's (the timers of a backup
   * are rounded up to a multiple of this, so those of one interval fire together).
   */
  backupDelayMs?: number;
}

/** The application name prefix of a scheduler's wake-up connection: the rest is its peer id. */
export const listenerNamePrefix = 'core-jobs:';

/** Retry delay after the n-th failed attempt of a job: 1 s, 2 s, 4 s, … capped at 10 minutes. */
export const jobRetryDelayMs = (attempt: number): number => Math.min(600_000, 1_000 * 2 ** Math.max(0, attempt - 1));

interface Registered {
  one?: JobHandler;
  batch?: BatchJobHandler;
}

export class JobScheduler {
  private readonly handlers = new Map<string, Registered>();
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly idleMaxMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly lookaheadMs: number;
  private readonly maxArmed: number;
  private readonly planMinIntervalMs: number;
  /** Claims in hand (locked_by values), renewed together by the heartbeat. */
  private readonly held = new Set<string>();
  private heartbeat: NodeJS.Timeout | null = null;
  private heartbeatStopped = false;
  private signalConnected = false;
  private readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** This scheduler among the listening instances (job-listener.ts names its connection with it). */
  readonly peerId = randomUUID();
  /** Its rank among the listening instances and their number, from the last reading (alone: every job is its own). */
  private shard = { rank: 0, count: 1 };
  private readonly backupDelayMs: number;
  private started = false;
  private stopRequested = false;
  /** The in-process timers: job id → when it becomes claimable (ms) and its timer. */
  private readonly armed = new Map<number, { at: number; timer: NodeJS.Timeout }>();
  private pollTimer: NodeJS.Timeout | null = null;
  private planTimer: NodeJS.Timeout | null = null;
  private planDueAt = 0;
  private planning: Promise<void> | null = null;
  private planAgain = false;
  private lastPlanAt = -Infinity;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  /** The last claim round stopped because every slot was taken: a finishing job starts another. */
  private saturated = false;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private completions: { job: ClaimedJob; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writingCompletions = false;

  constructor(
    private readonly db: Db,
    private readonly options: SchedulerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 3_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.idleMaxMs = options.idleMaxMs ?? 30_000;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 200;
    this.lookaheadMs = options.lookaheadMs ?? 30_000;
    this.maxArmed = options.maxArmed ?? 50_000;
    this.planMinIntervalMs = options.planMinIntervalMs ?? 200;
    this.backupDelayMs = options.backupDelayMs ?? 1_000;
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, { one: handler });
  }

  /** A kind whose jobs claimed together go to one call (set-based handlers: one transaction for many jobs). */
  registerBatch(kind: string, handler: BatchJobHandler): void {
    this.handlers.set(kind, { batch: handler });
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
      await Promise.all(this.launch(jobs));
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
    const jobs = await this.claim(1, dedupeKey);
    await Promise.all(this.launch(jobs));
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

  /** Runs jobs as they fall due until stop(): reads the upcoming ones, arms their timers, claims what is due. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopRequested = false;
    this.kick();
    this.requestPlan();
    this.schedulePoll();
  }

  /** Finishes the jobs in hand (handlers see stopping() and return early), then stops. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    for (const timer of [this.pollTimer, this.planTimer]) if (timer) clearTimeout(timer);
    this.pollTimer = this.planTimer = null;
    for (const { timer } of this.armed.values()) clearTimeout(timer);
    this.armed.clear();
    await this.planning;
    await this.pumping;
    while (this.running.size > 0) await Promise.all([...this.running]);
    this.started = false;
  }

  /** Claim what is due now and read the upcoming jobs again (after enqueueing work; NOTIFY calls it too). */
  wake(): void {
    if (!this.started || this.stopRequested) return;
    this.kick();
    this.requestPlan();
  }

  /**
   * Whether a wake-up signal is connected (job-listener.ts calls this). While it is, an idle worker waits for the
   * signal and its timers; while it is not, it also polls every pollIntervalMs.
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

  private get active(): boolean {
    return this.started && !this.stopRequested;
  }

  /** Without a wake-up signal, claims what is due every pollIntervalMs (with it, the timers and NOTIFY do). */
  private schedulePoll(): void {
    if (!this.active) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      if (!this.signalConnected) this.kick();
      this.schedulePoll();
    }, this.pollIntervalMs);
  }

  /**
   * Arms a timer that claims at `at` (ms, on the scheduler's clock), replacing one armed for another time; a job of
   * another listening instance is armed as a backup, at the next multiple of backupDelayMs after `at + backupDelayMs`.
   */
  private arm(jobId: number, dueAt: number): void {
    if (!this.active) return;
    const { rank, count } = this.shard;
    const at =
      count <= 1 || jobId % count === rank
        ? dueAt
        : Math.ceil((dueAt + this.backupDelayMs) / this.backupDelayMs) * this.backupDelayMs;
    const existing = this.armed.get(jobId);
    if (existing?.at === at) return;
    if (existing) clearTimeout(existing.timer);
    else if (this.armed.size >= this.maxArmed) return;
    const entry = { at, timer: undefined as unknown as NodeJS.Timeout };
    // A timer can fire a moment before the clock reads `at` (timers count on the event loop's own clock): then it
    // waits the rest, as a claim made early would find the job not yet due.
    const fire = () => {
      const left = at - this.options.now().getTime();
      if (left > 0 && this.active) {
        entry.timer = setTimeout(fire, left);
        return;
      }
      if (this.armed.get(jobId) === entry) this.armed.delete(jobId);
      this.kick();
    };
    entry.timer = setTimeout(fire, Math.max(0, at - this.options.now().getTime()));
    this.armed.set(jobId, entry);
    this.options.onArm?.(jobId, new Date(at));
  }

  /** Reads the upcoming jobs soon: at once, or planMinIntervalMs after the last reading. */
  private requestPlan(): void {
    if (!this.active) return;
    if (this.planning) {
      this.planAgain = true;
      return;
    }
    this.schedulePlan(Math.max(0, this.lastPlanAt + this.planMinIntervalMs - Date.now()));
  }

  /** Sets the next reading of the upcoming jobs `ms` from now, unless one is set for sooner. */
  private schedulePlan(ms: number): void {
    if (!this.active) return;
    if (this.planTimer) {
      if (this.planDueAt <= Date.now() + ms) return;
      clearTimeout(this.planTimer);
    }
    this.planDueAt = Date.now() + ms;
    this.planTimer = setTimeout(() => {
      this.planTimer = null;
      this.planning = this.plan().finally(() => {
        this.planning = null;
        if (this.planAgain) {
          this.planAgain = false;
          this.requestPlan();
        }
      });
    }, ms);
  }

  /** Arms a timer for each job that becomes claimable within the look-ahead; then sets the next reading. */
  private async plan(): Promise<void> {
    this.lastPlanAt = Date.now();
    let next = Math.min(this.idleMaxMs, this.lookaheadMs / 3);
    try {
      const now = this.options.now().getTime();
      const until = new Date(now + this.lookaheadMs);
      await this.readShard();
      const upcoming = await selectUpcomingJobs(this.db, until, this.maxArmed);
      for (const job of upcoming) this.arm(job.id, new Date(job.at).getTime());
      // Only the earliest fitted: read again when the last armed one falls due.
      if (upcoming.length >= this.maxArmed)
        next = Math.min(next, Math.max(this.pollIntervalMs, new Date(upcoming.at(-1)!.at).getTime() - now));
    } catch (error) {
      this.options.logger.error({ err: error }, 'reading the upcoming jobs failed');
      next = this.pollIntervalMs;
    }
    this.schedulePlan(next);
  }

  /** Who listens besides this instance (only while its own wake-up connection does): its rank among them. */
  private async readShard(): Promise<void> {
    if (!this.signalConnected) {
      this.shard = { rank: 0, count: 1 };
      return;
    }
    try {
      const peers = await selectListeningPeers(this.db, listenerNamePrefix);
      const rank = peers.indexOf(this.peerId);
      this.shard = rank < 0 ? { rank: 0, count: 1 } : { rank, count: peers.length };
    } catch (error) {
      this.options.logger.warn({ err: error }, 'reading the listening instances failed; arming every job');
      this.shard = { rank: 0, count: 1 };
    }
  }

  /** Claims due jobs while slots are free; called by the timers, wake(), the poll and finishing jobs. */
  private kick(): void {
    if (!this.active) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.kick();
      }
    });
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        while (this.active) {
          const free = this.concurrency - this.inFlight;
          this.saturated = free <= 0;
          if (this.saturated) break;
          const want = Math.min(this.batchSize, free);
          const jobs = await this.claim(want);
          for (const launched of this.launch(jobs)) {
            const run = launched.catch((error: unknown) =>
              this.options.logger.error({ err: error }, 'writing a job outcome failed'),
            );
            this.running.add(run);
            void run.finally(() => this.running.delete(run));
          }
          if (jobs.length < want) break;
        }
      } while (this.pumpAgain && this.active);
    } catch (error) {
      this.options.logger.error({ err: error }, 'job poll failed');
    }
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

  /** Starts the claimed jobs: those of a batch kind together (in calls of at most batchSize), the others one each. */
  private launch(jobs: ClaimedJob[]): Promise<void>[] {
    const batches = new Map<string, ClaimedJob[]>();
    const runs: Promise<void>[] = [];
    for (const job of jobs) {
      const registered = this.handlers.get(job.kind);
      if (registered?.batch) batches.set(job.kind, [...(batches.get(job.kind) ?? []), job]);
      else runs.push(this.track([job], () => this.runOne(job, registered?.one)));
    }
    for (const [kind, group] of batches) {
      const handler = this.handlers.get(kind)!.batch!;
      for (let i = 0; i < group.length; i += this.batchSize) {
        const part = group.slice(i, i + this.batchSize);
        runs.push(this.track(part, () => this.runBatch(part, handler)));
      }
    }
    return runs;
  }

  /** Holds the jobs' leases while `run` works, and counts them in flight. */
  private async track(jobs: ClaimedJob[], run: () => Promise<void>): Promise<void> {
    this.inFlight += jobs.length;
    for (const job of jobs) this.hold(job.locked_by);
    try {
      await run();
    } finally {
      for (const job of jobs) this.release(job.locked_by);
      this.inFlight -= jobs.length;
      if (this.saturated) this.kick();
    }
  }

  private context(job: ClaimedJob): JobContext {
    return {
      jobId: job.id,
      claim: job.locked_by,
      attempt: job.attempts,
      now: this.options.now,
      stopping: () => this.started && this.stopRequested,
    };
  }

  private async runOne(job: ClaimedJob, handler: JobHandler | undefined): Promise<void> {
    let result: JobResult;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      result = await handler(job.payload, this.context(job));
    } catch (error) {
      await this.fail(job, error);
      return;
    }
    await this.finish(job, result);
  }

  private async runBatch(jobs: ClaimedJob[], handler: BatchJobHandler): Promise<void> {
    let results: BatchJobResult[];
    try {
      results = await handler(jobs.map((job) => ({ payload: job.payload, ctx: this.context(job) })));
      if (results.length !== jobs.length) throw new Error(`batch handler answered ${results.length} of ${jobs.length}`);
    } catch (error) {
      await Promise.all(jobs.map((job) => this.fail(job, error)));
      return;
    }
    await Promise.all(
      jobs.map((job, i) => {
        const result = results[i];
        return result && 'error' in result ? this.fail(job, result.error) : this.finish(job, result);
      }),
    );
  }

  private async finish(job: ClaimedJob, result: JobResult): Promise<void> {
    if (result && 'rerunAt' in result) {
      await rescheduleJob(this.db, job, result.rerunAt);
      if (result.rerunAt.getTime() - this.options.now().getTime() <= this.lookaheadMs)
        this.arm(job.id, result.rerunAt.getTime());
    } else await this.completed(job);
  }

  /** Marks the job done; completions that arrive while a write runs go together in the next one. */
  private completed(job: ClaimedJob): Promise<void> {
    return new Promise((resolve, reject) => {
      this.completions.push({ job, resolve, reject });
      if (!this.writingCompletions) void this.writeCompletions();
    });
  }

  private async writeCompletions(): Promise<void> {
    this.writingCompletions = true;
    try {
      while (this.completions.length > 0) {
        const group = this.completions.splice(0, 1_000);
        try {
          await markJobsDone(
            this.db,
            group.map((c) => c.job),
            this.options.now(),
          );
          for (const c of group) c.resolve();
        } catch (error) {
          for (const c of group) c.reject(error);
        }
      }
    } finally {
      this.writingCompletions = false;
    }
  }

  private async fail(job: ClaimedJob, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
    const gaveUp = job.attempts >= job.max_attempts;
    this.options.logger[gaveUp ? 'error' : 'warn'](
      { jobId: job.id, kind: job.kind, attempt: job.attempts, err: error },
      gaveUp ? 'job failed for good' : 'job failed, will retry',
    );
    const now = this.options.now();
    const retryAt = gaveUp ? null : new Date(now.getTime() + jobRetryDelayMs(job.attempts));
    await markJobFailed(this.db, job, { now, retryAt, error: message });
    if (retryAt && retryAt.getTime() - now.getTime() <= this.lookaheadMs) this.arm(job.id, retryAt.getTime());
  }
}
