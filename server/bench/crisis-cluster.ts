// Armed alarms through a cluster: 3 instances of the production build behind HAProxy (`npm run cluster`'s
// scripts/prove/cluster.mjs) on one PostgreSQL database, 10,000 alarms due within 30 s, and one instance killed
// with kill -9 in the middle of the window. The instances run in development mode, so every SMS lands in the dev
// outbox (one row each, with the database's time); the figures come from those rows: each alarm's lag from its
// due time, how many alarms went once, twice or never, and the lag of those due after the kill.
// Run (after `npm run build`): BENCH_DATABASE_URL=postgres://…/db node --import tsx server/bench/crisis-cluster.ts
import { sql } from 'kysely';
import { Client } from 'pg';
import { openDatabase } from '../src/db/database';
import { emailHash } from '../src/security/hashing';
import { buildPermissions } from '../src/modules/users/permission-flags';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startCluster } from '../../scripts/prove/cluster.mjs';

const url = process.env.BENCH_DATABASE_URL;
const alarms = Number(process.env.BENCH_ALARMS ?? 10_000);
const windowSeconds = Number(process.env.BENCH_ALARM_WINDOW_SECONDS ?? 30);
const killAfterMs = Number(process.env.BENCH_KILL_AFTER_MS ?? (windowSeconds * 1000) / 2);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (lags: number[]) =>
  lags.length === 0
    ? 'none'
    : `p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms (${lags.length})`;

interface Node {
  pid: number;
}
interface Cluster {
  instances: Node[];
  kill9(n: number): Promise<void>;
  stop(): Promise<void>;
}

async function main() {
  if (!url) throw new Error('BENCH_DATABASE_URL is required');
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query('drop schema public cascade');
  await admin.query('create schema public');
  await admin.end();
  const cluster = (await startCluster({
    instances: 3,
    databaseUrl: url,
    build: 'dist',
    env: { LOG_LEVEL: 'warn' },
  })) as Cluster;
  const database = await openDatabase({ url, dataDir: null, poolSize: 4 });
  const db = database.db;
  try {
    const { id: tenant } = await db
      .insertInto('tenants')
      .values({ name: 'Cluster bench', logo_url: 'https://c.test/l.png', website_url: 'https://c.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const person = async (name: string, email: string, phone: string) => {
      const { id } = await db
        .insertInto('users')
        .values({ name, title: null, email, email_hash: emailHash(email), phone_primary: phone })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('memberships')
        .values({ tenant_id: tenant, user_id: id, permissions: JSON.stringify(buildPermissions(false)) })
        .execute();
      return id;
    };
    const recipient = await person('On call', 'oncall@cluster.test', '+46709990001');
    // One lone worker per alarm: alarms of one owner to the same recipients within a minute would collapse into one
    // summary (personal-alarms.repeats.ts), and each alarm is to reach the outbox on its own here.
    await sql`insert into users (name, title, email, email_hash)
              select 'Lone worker ' || n, null, 'lone-' || n || '@cluster.test', 'cluster-bench-owner-' || n
                from generate_series(1, ${alarms}) n`.execute(db);
    await sql`insert into memberships (tenant_id, user_id, permissions)
              select ${tenant}, id, ${JSON.stringify(buildPermissions(false))}::jsonb from users where email like 'lone-%@cluster.test'`.execute(
      db,
    );
    const stepMs = (windowSeconds * 1000) / alarms;
    // Made an hour out, then moved into the window in one statement once all exist, and announced as an enqueue
    // announces new jobs (NOTIFY core_jobs).
    await sql`insert into personal_alarms (tenant_id, user_id, device_id, text, dispatch_at, active, one_minute_warning, created_at, updated_at)
              select ${tenant}, u.id, 'device-' || n, 'Alone in the boiler room, cluster alarm ' || n,
                     now() + interval '1 hour' + n * ${stepMs}::float8 * interval '1 millisecond', true, false, now(), now()
                from generate_series(1, ${alarms}) n join users u on u.email = 'lone-' || n || '@cluster.test'`.execute(
      db,
    );
    await sql`insert into personal_alarm_recipient_users (alarm_id, user_id) select id, ${recipient} from personal_alarms where tenant_id = ${tenant}`.execute(
      db,
    );
    await sql`insert into jobs (kind, dedupe_key, payload, run_at, max_attempts)
              select 'alarm.fire', 'alarm:' || id || ':v1:fire', jsonb_build_object('alarmId', id, 'version', 1), dispatch_at, 50
                from personal_alarms where tenant_id = ${tenant}`.execute(db);
    const start = Date.now() + 3_000;
    const shift = sql`(${new Date(start)}::timestamptz - (select min(dispatch_at) from personal_alarms where tenant_id = ${tenant}) + ${stepMs}::float8 * interval '1 millisecond')`;
    await db.transaction().execute(async (trx) => {
      await sql`update jobs set run_at = run_at + ${shift} where dedupe_key in (select 'alarm:' || id || ':v1:fire' from personal_alarms where tenant_id = ${tenant})`.execute(
        trx,
      );
      await sql`update personal_alarms set dispatch_at = dispatch_at + ${shift} where tenant_id = ${tenant}`.execute(
        trx,
      );
      await sql`select pg_notify('core_jobs', '')`.execute(trx);
    });
    const lead = start - Date.now();
    const victim = cluster.instances[0].pid;
    await new Promise((r) => setTimeout(r, Math.max(0, start + killAfterMs - Date.now())));
    const killedAt = Date.now();
    await cluster.kill9(0);
    const seen = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(distinct body) as n from outbox where body like '%cluster alarm %'`.execute(db)
        ).rows[0].n,
      );
    const deadline = start + windowSeconds * 1000 + 120_000;
    while ((await seen()) < alarms && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    await new Promise((r) => setTimeout(r, 2_000)); // repeats written a moment later would count too
    const { rows } = await sql<{ body: string; created_at: Date }>`
      select body, created_at from outbox where body like '%cluster alarm %'`.execute(db);
    const byAlarm = new Map<number, number[]>();
    for (const row of rows) {
      const n = Number(/cluster alarm (\d+)/.exec(row.body)![1]);
      byAlarm.set(n, [...(byAlarm.get(n) ?? []), new Date(row.created_at).getTime()]);
    }
    const lags: number[] = [];
    const afterKill: number[] = [];
    for (const [n, times] of byAlarm) {
      const due = start + n * stepMs;
      const lag = Math.round(Math.min(...times) - due);
      lags.push(lag);
      if (due >= killedAt) afterKill.push(lag);
    }
    lags.sort((a, b) => a - b);
    afterKill.sort((a, b) => a - b);
    const twice = [...byAlarm.values()].filter((t) => t.length > 1).length;
    const fired = await sql<{
      n: number;
    }>`select count(*) as n from personal_alarms where tenant_id = ${tenant} and message_id is not null`.execute(db);
    console.log(
      `${alarms} armed alarms due within ${windowSeconds} s, 3 instances behind HAProxy on one PostgreSQL, instance 1 (pid ${victim}) killed with kill -9 ${((killedAt - start) / 1000).toFixed(1)} s into the window (alarms made due ${lead} ms after set-up):`,
    );
    console.log(`  lag dispatchAt → outbox, all: ${summary(lags)}`);
    console.log(`  lag of those due after the kill: ${summary(afterKill)}`);
    console.log(
      `  alarms in the outbox: ${byAlarm.size} of ${alarms} (never: ${alarms - byAlarm.size}, more than once: ${twice}); alarms recorded fired: ${fired.rows[0].n}`,
    );
  } finally {
    await database.close();
    await cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
