// The durable job scheduler on its own: dedupe, timing, retries with backoff, leases, cancelling, and several
// workers on one database (on PGlite, and on PostgreSQL with real concurrency when TEST_DATABASE_URL is set).
import { randomBytes } from 'node:crypto';
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
    const handler =
      (who: 'a' | 'b'): JobHandler =>
      async (payload) => {
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        counts.set(Number(payload.n), (counts.get(Number(payload.n)) ?? 0) + 1);
        ranBy[who]++;
      };
    const a = scheduler(shared.a);
    const b = scheduler(shared.b);
    a.register('k', handler('a'));
    b.register('k', handler('b'));
    for (let n = 0; n < 200; n++) await a.enqueue(shared.a.db, { kind: 'k', dedupeKey: `race-${n}`, payload: { n } });
    await Promise.all([a.runDueJobs(), b.runDueJobs(), a.runDueJobs(), b.runDueJobs()]);
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(ranBy.a + ranBy.b).toBe(200);
    if (backend === 'postgres') expect(Math.min(ranBy.a, ranBy.b)).toBeGreaterThan(0);
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
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
