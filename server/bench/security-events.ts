// `npm run bench:events`: security events written per second on PostgreSQL, bounded in time. A fresh database
// (dropped first), migrated; then, for BENCH_SECONDS each (3 by default), writers in parallel (BENCH_WRITERS, 4 by
// default) record events one statement each (as a sign-in failure or a passkey change does), then ten per
// statement (as a directory's batch or a permission change of ten flags does). Prints events per second and the
// statements per second they took, with the load average.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { eventClient, recordSecurityEvent, recordSecurityEvents } from '../src/modules/security-events';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const writers = Number(process.env.BENCH_WRITERS ?? 4);
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `${process.env.BENCH_DATABASE_PREFIX ?? 'core_bench'}_events`;
const url = pgUrl.replace(/\/[^/]*$/, `/${name}`);

async function recreate(): Promise<void> {
  const admin = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
}

async function main(): Promise<void> {
  const startLoad = loadavg()[0]!;
  await recreate();
  const handle = await openDatabase({ url, poolSize: writers + 2 });
  try {
    await migrateToLatest(handle.db);
    const users = await handle.db
      .insertInto('users')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          name: `Bench ${i}`,
          email: `bench-${i}@example.test`,
          email_hash: `bench-hash-${i}`,
        })),
      )
      .returning('id')
      .execute();
    const client = eventClient('eu-north-1', '203.0.113.9', 'Bench/1.0');
    const event = (i: number) => ({
      kind: 'sign_in_failed' as const,
      userId: users[i % users.length]!.id,
      client,
      details: { method: 'password' },
    });
    const run = async (perStatement: number) => {
      const until = Date.now() + seconds * 1000;
      let events = 0;
      let statements = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: writers }, async () => {
          while (Date.now() < until) {
            if (perStatement === 1) await recordSecurityEvent(handle.db, event(events));
            else
              await recordSecurityEvents(
                handle.db,
                Array.from({ length: perStatement }, (_, k) => event(events + k)),
              );
            events += perStatement;
            statements++;
          }
        }),
      );
      const elapsed = (Date.now() - started) / 1000;
      return { eventsPerSecond: events / elapsed, statementsPerSecond: statements / elapsed };
    };
    await run(1); // warm-up: connections, plans
    const single = await run(1);
    const batched = await run(10);
    const count = await handle.db
      .selectFrom('security_events')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const fmt = (n: number) => n.toFixed(0);
    process.stdout.write(
      [
        `security events on PostgreSQL, ${writers} writers, ${seconds} s per run (load average ${startLoad.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)})`,
        `  one event per statement: ${fmt(single.eventsPerSecond)} events/s (${fmt(single.statementsPerSecond)} statements/s)`,
        `  ten events per statement: ${fmt(batched.eventsPerSecond)} events/s (${fmt(batched.statementsPerSecond)} statements/s)`,
        `  rows written in all: ${Number(count.n)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await handle.close();
    const admin = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
