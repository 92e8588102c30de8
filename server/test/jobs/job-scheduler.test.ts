// The durable job scheduler on its own: dedupe, timing, retries with backoff, leases, cancelling, and several
// workers on one database (on PGlite, and on PostgreSQL with real concurrency when TEST_DATABASE_URL is set).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { jobRetryDelayMs, JobScheduler, type JobHandler } from '../../src/jobs/scheduler';
import { createLogger } from '../../src/logger';
import { openTestDatabase, postgresUrl, storageBackends, type TestBackend } from '../support/database';
import { fakeClock } from '../support/crisis-fixtures';

const logger = createLogger('silent');

/** Two handles on one database: the same PGlite, or two connection pools on one PostgreSQL schema. */
async function openShared(
  backend: TestBackend,
): Promise<{ a: DatabaseHandle; b: DatabaseHandle; close(): Promise<void> }> {
  if (backend === 'pglite') {
    const a = await openTestDatabase('pglite');
    return { a, b: a, close: () => a.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: postgresUrl! });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const a = await openDatabase({ url: postgresUrl, schema, poolSize: 5 });
  await migrateToLatest(a.db, a.schema);
  const b = await openDatabase({ url: postgresUrl, schema, poolSize: 5 });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

describe.each(storageBackends)('the job scheduler on %s', (backend) => {
  let shared: Awaited<ReturnType<typeof openShared>>;
  const clock = fakeClock();
  const scheduler = (handle = shared.a, leaseMs = 30_000) =>
    new JobScheduler(handle.db, { now: clock.now, logger, leaseMs });
  const jobRow = (key: string) =>
    shared.a.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', key).executeTakeFirstOrThrow();

  beforeAll(async () => {
    shared = await openShared(backend);
  });
  afterAll(() => shared.close());
  beforeEach(async () => {
    await shared.a.db.deleteFrom('jobs').execute();
  });

  test('a job with a dedupe key that exists is not enqueued again', async () => {
    const jobs = scheduler();
    expect(await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'once' })).toBe(true);
    expect(await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'once' })).toBe(false);
    const runs: unknown[] = [];
    jobs.register('k', async (payload) => void runs.push(payload));
    expect(await jobs.runDueJobs()).toBe(1);
    expect(await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'once' })).toBe(false);
    expect(await jobs.runDueJobs()).toBe(0);
    expect(runs).toHaveLength(1);
  });

  test('a job runs when its time comes, not before, with its payload', async () => {
    const jobs = scheduler();
    const runs: unknown[] = [];
    jobs.register('k', async (payload) => void runs.push(payload));
    await jobs.enqueue(shared.a.db, {
      kind: 'k',
      dedupeKey: 'later',
      payload: { n: 1 },
      runAt: new Date(clock.now().getTime() + 5_000),
    });
    expect(await jobs.runDueJobs()).toBe(0);
    clock.advance(4_999);
    expect(await jobs.runDueJobs()).toBe(0);
    clock.advance(1);
    expect(await jobs.runDueJobs()).toBe(1);
    expect(runs).toEqual([{ n: 1 }]);
    expect((await jobRow('later')).status).toBe('done');
  });

  test('a failing job is retried after 1 s, 2 s, 4 s … and fails for good after its last attempt', async () => {
    const jobs = scheduler();
    let calls = 0;
    jobs.register('k', async () => {
      calls++;
      throw new Error(`provider down (${calls})`);
    });
    await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'flaky', maxAttempts: 4 });
    await jobs.runDueJobs();
    for (const attempt of [1, 2, 3]) {
      const row = await jobRow('flaky');
      expect(row).toMatchObject({
        status: 'pending',
        attempts: attempt,
        last_error: `provider down (${attempt})`,
        locked_until: null,
      });
      expect(row.run_at.getTime() - clock.now().getTime()).toBe(jobRetryDelayMs(attempt));
      expect(jobRetryDelayMs(attempt)).toBe(1_000 * 2 ** (attempt - 1));
      clock.advance(jobRetryDelayMs(attempt) - 1);
      expect(await jobs.runDueJobs()).toBe(0);
      clock.advance(1);
      expect(await jobs.runDueJobs()).toBe(1);
    }
    expect(await jobRow('flaky')).toMatchObject({ status: 'failed', attempts: 4, last_error: 'provider down (4)' });
    clock.advance(3_600_000);
    expect(await jobs.runDueJobs()).toBe(0);
    expect(calls).toBe(4);
  });

  test('a job that recovers is done after the retry and runs no more', async () => {
    const jobs = scheduler();
    let calls = 0;
    jobs.register('k', async () => {
      if (++calls === 1) throw new Error('once');
    });
    await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'recovers' });
    await jobs.runDueJobs();
    clock.advance(1_000);
    await jobs.runDueJobs();
    clock.advance(60_000);
    await jobs.runDueJobs();
    expect(calls).toBe(2);
    expect(await jobRow('recovers')).toMatchObject({ status: 'done', last_error: null });
  });

  test('a handler that answers rerunAt runs again then, and it does not count as a failure', async () => {
    const jobs = scheduler();
    let calls = 0;
    jobs.register('k', async (_payload, ctx) =>
      ++calls < 3 ? { rerunAt: new Date(ctx.now().getTime() + 10_000) } : undefined,
    );
    await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'again', maxAttempts: 1 });
    await jobs.runDueJobs();
    expect(await jobRow('again')).toMatchObject({ status: 'pending', attempts: 0 });
    clock.advance(10_000);
    await jobs.runDueJobs();
    clock.advance(10_000);
    await jobs.runDueJobs();
    expect(calls).toBe(3);
    expect((await jobRow('again')).status).toBe('done');
  });

  test('a cancelled job never runs', async () => {
    const jobs = scheduler();
    const runs: string[] = [];
    jobs.register('k', async () => void runs.push('ran'));
    await jobs.enqueue(shared.a.db, {
      kind: 'k',
      dedupeKey: 'cancel-me',
      runAt: new Date(clock.now().getTime() + 1_000),
    });
    await jobs.cancel(shared.a.db, ['cancel-me']);
    clock.advance(2_000);
    expect(await jobs.runDueJobs()).toBe(0);
    expect(runs).toEqual([]);
    expect((await jobRow('cancel-me')).status).toBe('cancelled');
  });

  test('a job whose worker stopped is claimed again after the lease, and the old worker cannot complete it', async () => {
    const dead = scheduler(shared.a, 30_000);
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let deadRuns = 0;
    dead.register('k', async () => {
      deadRuns++;
      await hung;
    });
    await dead.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'orphan' });
    const deadRun = dead.runDueJobs();
    await waitFor(async () => (await jobRow('orphan')).locked_by !== null);

    const alive = scheduler(shared.b, 30_000);
    let aliveRuns = 0;
    alive.register('k', async () => void aliveRuns++);
    expect(await alive.runDueJobs()).toBe(0);
    dead.stopHeartbeat();
    clock.advance(30_000);
    expect(await alive.runDueJobs()).toBe(1);
    expect(aliveRuns).toBe(1);
    expect((await jobRow('orphan')).status).toBe('done');

    // The stalled worker wakes up and fails: the job stays done.
    release();
    await deadRun;
    expect(deadRuns).toBe(1);
    expect(await jobRow('orphan')).toMatchObject({ status: 'done', attempts: 2 });
  });

  test('two workers running at once run every job exactly once', async () => {
    const counts = new Map<number, number>();
    const ranBy = { a: 0, b: 0 };
    // Each worker's jobs wait until the other worker has one in hand, so both really run at once whatever the
    // machine's pace: a worker claims at most 2 × 20 before it waits, and 200 are queued.
    const started = { a: 0, b: 0 };
    const handler =
      (who: 'a' | 'b'): JobHandler =>
      async (payload) => {
        started[who]++;
        const other = who === 'a' ? 'b' : 'a';
        const until = Date.now() + 10_000;
        while (started[other] === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        counts.set(Number(payload.n), (counts.get(Number(payload.n)) ?? 0) + 1);
        ranBy[who]++;
      };
    const a = new JobScheduler(shared.a.db, { now: clock.now, logger, leaseMs: 30_000, batchSize: 20 });
    const b = new JobScheduler(shared.b.db, { now: clock.now, logger, leaseMs: 30_000, batchSize: 20 });
    a.register('k', handler('a'));
    b.register('k', handler('b'));
    for (let n = 0; n < 200; n++) await a.enqueue(shared.a.db, { kind: 'k', dedupeKey: `race-${n}`, payload: { n } });
    await Promise.all([a.runDueJobs(), b.runDueJobs(), a.runDueJobs(), b.runDueJobs()]);
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(ranBy.a + ranBy.b).toBe(200);
    expect(Math.min(ranBy.a, ranBy.b)).toBeGreaterThan(0);
  });

  test('start() polls on its own and stop() waits for the job in hand', async () => {
    const jobs = new JobScheduler(shared.a.db, { now: clock.now, logger, pollIntervalMs: 10 });
    let finished = false;
    jobs.register('k', async () => {
      await new Promise((r) => setTimeout(r, 50));
      finished = true;
    });
    await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'polled' });
    jobs.start();
    await waitFor(async () => (await jobRow('polled')).locked_by !== null);
    await jobs.stop();
    expect(finished).toBe(true);
    expect((await jobRow('polled')).status).toBe('done');
  });

  test('wake() makes a started scheduler look for work at once', async () => {
    const jobs = new JobScheduler(shared.a.db, { now: clock.now, logger, pollIntervalMs: 60_000 });
    const runs: string[] = [];
    jobs.register('k', async () => void runs.push('ran'));
    jobs.start();
    await new Promise((r) => setTimeout(r, 20));
    await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'woken' });
    jobs.wake();
    await waitFor(async () => runs.length === 1);
    await jobs.stop();
  });

  test('a job due in 300 ms is armed as a timer for its due time and runs then, not at the next poll', async () => {
    // Polls and periodic readings of the upcoming jobs a minute apart, no NOTIFY: only the reading wake() asks for
    // and the timer it arms can run the job sooner.
    const now = () => new Date();
    const armed = new Map<number, number>();
    const jobs = new JobScheduler(shared.a.db, {
      now,
      logger,
      pollIntervalMs: 60_000,
      idleMaxMs: 60_000,
      lookaheadMs: 600_000,
      onArm: (id, at) => armed.set(id, at.getTime()),
    });
    let ranAt = 0;
    jobs.register('k', async () => void (ranAt = Date.now()));
    jobs.start();
    try {
      const startedAt = Date.now();
      await jobs.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'in-300-ms', runAt: new Date(Date.now() + 3_600_000) });
      const { id } = await jobRow('in-300-ms');
      // Made due in 300 ms (as enqueueing it would, without a cold first statement in the way), then wake().
      const runAt = new Date(Date.now() + 300);
      await shared.a.db.updateTable('jobs').set({ run_at: runAt }).where('id', '=', id).execute();
      const dueAtWake = Date.now() >= runAt.getTime();
      jobs.wake();
      await waitFor(async () => ranAt > 0, 30_000);
      expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime());
      // Armed for its due time by the reading wake() asked for (unless the machine was so slow that the job was
      // already due at wake(), whose claim takes it), and run before any poll or periodic reading (the first of
      // each comes a minute after the start).
      if (!dueAtWake) expect(armed.get(Number(id))).toBe(runAt.getTime());
      expect(ranAt).toBeLessThan(startedAt + 60_000);
      // Its completion is written after the handler returns.
      await waitFor(async () => (await jobRow('in-300-ms')).status === 'done');
    } finally {
      await jobs.stop();
    }
  }, 40_000);

  test('two started instances arm timers for the same 100 jobs due within a second and run each once, none early', async () => {
    const now = () => new Date();
    const ran = new Map<string, number>();
    const early: string[] = [];
    const handler: JobHandler = async (payload) => {
      const key = String(payload.key);
      if (Date.now() < Number(payload.at)) early.push(key);
      ran.set(key, (ran.get(key) ?? 0) + 1);
    };
    const options = { now, logger, pollIntervalMs: 60_000, idleMaxMs: 60_000 };
    const a = new JobScheduler(shared.a.db, options);
    const b = new JobScheduler(shared.b.db, options);
    a.register('k', handler);
    b.register('k', handler);
    const later = new Date(Date.now() + 3_600_000);
    for (let n = 0; n < 100; n++)
      await a.enqueue(shared.a.db, { kind: 'k', dedupeKey: `timed-${n}`, runAt: later, payload: { key: n } });
    // Due over the next second, 5 ms apart, once all exist; each handler checks it runs no earlier than its time.
    const base = Date.now() + 500;
    await sql`update jobs set run_at = ${new Date(base)}::timestamptz + (payload->>'key')::int * interval '5 milliseconds',
                              payload = payload || jsonb_build_object('at', ${base}::bigint + (payload->>'key')::int * 5)`.execute(
      shared.a.db,
    );
    a.start();
    b.start();
    try {
      await waitFor(async () => ran.size === 100, 30_000);
      await new Promise((r) => setTimeout(r, 200));
      expect([...ran.values()].every((count) => count === 1)).toBe(true);
      expect(early).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 40_000);

  test('jobs of a batch kind claimed together go to one call, and one job’s failure is its own', async () => {
    const jobs = scheduler();
    const calls: number[][] = [];
    jobs.registerBatch('b', async (batch) => {
      calls.push(batch.map((j) => Number(j.payload.n)).sort());
      return batch.map((j) => (j.payload.n === 2 ? { error: new Error('two failed') } : undefined));
    });
    for (let n = 1; n <= 3; n++)
      await jobs.enqueue(shared.a.db, { kind: 'b', dedupeKey: `batch-${n}`, payload: { n } });
    expect(await jobs.runDueJobs()).toBe(3);
    expect(calls).toEqual([[1, 2, 3]]);
    expect((await jobRow('batch-1')).status).toBe('done');
    expect(await jobRow('batch-2')).toMatchObject({ status: 'pending', attempts: 1, last_error: 'two failed' });
    expect((await jobRow('batch-3')).status).toBe('done');
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
