// Failover of work between instances: short job leases renewed by one heartbeat per worker, so a survivor takes a
// dead worker's jobs over within seconds; several instances starting at once on an empty database; and idle
// workers woken by LISTEN/NOTIFY instead of polling (PostgreSQL only, when TEST_DATABASE_URL is set).
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { buildServices } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';
import { withAdvisoryLock } from '../../src/db/advisory-lock';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { seedDemoData } from '../../src/demo/seed';
import { listenForJobs } from '../../src/jobs/job-listener';
import { JobScheduler, listenerNamePrefix } from '../../src/jobs/scheduler';
import { selectListeningPeers } from '../../src/jobs/jobs.repository';
import { createLogger } from '../../src/logger';
import { fakeClock } from '../support/crisis-fixtures';
import { openTestDatabase, postgresUrl, storageBackends, type TestBackend } from '../support/database';

const logger = createLogger('silent');
const onPostgres = postgresUrl ? describe : describe.skip;

async function freshSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: postgresUrl! });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  return {
    schema,
    drop: async () => {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}

/** Two handles on one database: the same PGlite, or two pools on one PostgreSQL schema (two instances). */
async function openShared(
  backend: TestBackend,
): Promise<{ a: DatabaseHandle; b: DatabaseHandle; close(): Promise<void> }> {
  if (backend === 'pglite') {
    const a = await openTestDatabase('pglite');
    return { a, b: a, close: () => a.close() };
  }
  const fresh = await freshSchema();
  const a = await openDatabase({ url: postgresUrl, schema: fresh.schema, poolSize: 5 });
  await migrateToLatest(a.db, a.schema);
  const b = await openDatabase({ url: postgresUrl, schema: fresh.schema, poolSize: 5 });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await fresh.drop();
    },
  };
}

const until = async (check: () => boolean | Promise<boolean>, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(storageBackends)('failover of claimed jobs on %s', (backend) => {
  let shared: Awaited<ReturnType<typeof openShared>>;
  beforeAll(async () => {
    shared = await openShared(backend);
  });
  afterAll(() => shared.close());
  beforeEach(async () => {
    await shared.a.db.deleteFrom('jobs').execute();
  });

  test('a killed worker (heartbeat stopped, job never completed) loses its job to another after the 3 s lease, not before', async () => {
    const clock = fakeClock();
    const a = new JobScheduler(shared.a.db, { now: clock.now, logger });
    const b = new JobScheduler(shared.b.db, { now: clock.now, logger });
    let releaseA!: () => void;
    let aStarted = false;
    a.register('k', () => new Promise<void>((resolve) => ((aStarted = true), (releaseA = resolve))));
    const bRuns: number[] = [];
    b.register('k', async (_p, ctx) => void bRuns.push(ctx.attempt));
    await a.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'fail-over' });
    const aRun = a.runDueJobs();
    await until(() => aStarted, 5_000);

    // Alive: the heartbeat keeps the job from B well past one lease.
    clock.advance(2_000);
    await a.renewLeases();
    clock.advance(2_000);
    expect(await b.runDueJobs()).toBe(0);
    await a.renewLeases();

    // Dead: no more heartbeats; once the lease has run out, B takes the job over.
    a.stopHeartbeat();
    clock.advance(2_900);
    expect(await b.runDueJobs()).toBe(0);
    clock.advance(200);
    expect(await b.runDueJobs()).toBe(1);
    expect(bRuns).toEqual([2]);

    // The dead worker's late completion changes nothing: the job is B's and done once.
    releaseA();
    await aRun;
    const row = await shared.a.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', 'fail-over')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('done');
    expect(row.attempts).toBe(2);
  });

  test('in real time, a running survivor takes over a killed worker’s job within 5 s', async () => {
    const now = () => new Date();
    const a = new JobScheduler(shared.a.db, { now, logger });
    const b = new JobScheduler(shared.b.db, { now, logger });
    let aStarted = false;
    a.register('k', () => new Promise<void>(() => void (aStarted = true)));
    let tookOverAt = 0;
    b.register('k', async () => void (tookOverAt = Date.now()));
    await a.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'real-time' });
    void a.runDueJobs();
    await until(() => aStarted, 5_000);
    b.start();
    try {
      // A beats for a while: B must not take the job from a live worker.
      await new Promise((r) => setTimeout(r, 3_500));
      expect(tookOverAt).toBe(0);
      a.stopHeartbeat();
      const killedAt = Date.now();
      await until(() => tookOverAt > 0, 10_000);
      expect(tookOverAt - killedAt).toBeLessThan(5_000);
    } finally {
      await b.stop();
    }
  }, 30_000);
});

onPostgres('several instances on one PostgreSQL database', () => {
  test('three instances starting at once on an empty database all migrate and seed without a duplicate key', async () => {
    const fresh = await freshSchema();
    const config = loadConfig({
      NODE_ENV: 'development',
      REGION: 'eu-north-1',
      DATA_DIR: ':memory:',
      PUBLIC_BASE_URL: 'http://127.0.0.1:4000',
      LOG_LEVEL: 'silent',
    });
    const handles = await Promise.all(
      [0, 1, 2].map(() => openDatabase({ url: postgresUrl, schema: fresh.schema, poolSize: 4 })),
    );
    try {
      const results = await Promise.allSettled(
        handles.map(async (database) => {
          const services = await buildServices(config, { database, logger });
          try {
            return await withAdvisoryLock(database, 'seed', () => seedDemoData(services));
          } finally {
            services.notifier.close();
          }
        }),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      // Exactly one of them seeded; the demo tenants exist once.
      expect(results.filter((r) => r.status === 'fulfilled' && r.value === true)).toHaveLength(1);
      const { count } = await handles[0].db
        .selectFrom('tenants')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(2);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await fresh.drop();
    }
  }, 60_000);

  test('three instances do not all claim every job at its time: each job is armed at its time by the one listening instance whose it is and as a backup a second later by the others; when that instance dies the survivors arm its jobs at their time', async () => {
    const shared = await openShared('postgres');
    const now = () => new Date();
    const due = Math.ceil((Date.now() + 20_000) / 1_000) * 1_000 + 123;
    const backup = Math.ceil((due + 1_000) / 1_000) * 1_000;
    const instances = [shared.a, shared.b, shared.a].map((handle) => {
      const armed = new Map<number, number>();
      const scheduler = new JobScheduler(handle.db, { now, logger, onArm: (id, at) => armed.set(id, at.getTime()) });
      scheduler.register('k', async () => undefined);
      return { scheduler, armed, listener: listenForJobs(postgresUrl!, scheduler, logger) };
    });
    const peers = () => selectListeningPeers(shared.a.db, listenerNamePrefix);
    try {
      await until(async () => {
        const listening = await peers();
        return instances.every((i) => listening.includes(i.scheduler.peerId));
      }, 10_000);
      const ids: number[] = [];
      for (let n = 0; n < 30; n++) {
        await instances[0].scheduler.enqueue(shared.a.db, { kind: 'k', dedupeKey: `shard-${n}`, runAt: new Date(due) });
        ids.push(
          Number(
            (
              await shared.a.db
                .selectFrom('jobs')
                .select('id')
                .where('dedupe_key', '=', `shard-${n}`)
                .executeTakeFirstOrThrow()
            ).id,
          ),
        );
      }
      for (const i of instances) i.scheduler.start();
      /** Each instance armed each job at its time when the job is its own among `listening`, else as a backup. */
      const armedAsShared = (listening: string[], which = instances) =>
        which.every((i) =>
          ids.every(
            (id) => i.armed.get(id) === (listening[id % listening.length] === i.scheduler.peerId ? due : backup),
          ),
        );
      let listening = await peers();
      await until(() => armedAsShared(listening), 10_000);
      const ownersAtTime = ids.map((id) => instances.filter((i) => i.armed.get(id) === due).length);
      // Other test files' instances may listen on this database too: a job of theirs is armed by none of these.
      expect(ownersAtTime.every((n) => n <= 1)).toBe(true);
      expect(ownersAtTime.filter((n) => n === 1).length).toBeGreaterThanOrEqual(
        Math.floor((30 * 3) / listening.length) - 3,
      );

      // The first instance dies (its wake-up connection goes with it): the next reading of the others counts it out.
      await instances[0].listener.close();
      await instances[0].scheduler.stop();
      const survivors = instances.slice(1);
      await until(async () => !(await peers()).includes(instances[0].scheduler.peerId), 10_000);
      listening = await peers();
      for (const i of survivors) i.scheduler.wake();
      await until(() => armedAsShared(listening, survivors), 10_000);
      expect(ids.every((id) => survivors.filter((i) => i.armed.get(id) === due).length <= 1)).toBe(true);
    } finally {
      for (const i of instances) {
        await i.listener.close();
        await i.scheduler.stop();
      }
      await shared.close();
    }
  }, 60_000);

  test('an idle instance is woken by NOTIFY when another enqueues, rather than by polling', async () => {
    const shared = await openShared('postgres');
    const now = () => new Date();
    // Polling every minute: only the notification can make it run the job promptly.
    const idle = new JobScheduler(shared.b.db, { now, logger, pollIntervalMs: 60_000, idleMaxMs: 60_000 });
    let ranAt = 0;
    idle.register('k', async () => void (ranAt = Date.now()));
    const listener = listenForJobs(postgresUrl!, idle, logger);
    idle.start();
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      const other = new JobScheduler(shared.a.db, { now, logger });
      const enqueuedAt = Date.now();
      await other.enqueue(shared.a.db, { kind: 'k', dedupeKey: 'wake-me' });
      await until(() => ranAt > 0, 10_000);
      expect(ranAt - enqueuedAt).toBeLessThan(2_000);
    } finally {
      await listener.close();
      await idle.stop();
      await shared.close();
    }
  }, 30_000);
});
