// PostgreSQL drivers side by side on the authenticated GET's own statements (the session check, then the tenants
// page), ten closed loops each: node-postgres from a pool (one connection per statement in flight, as the region
// ran before), node-postgres in pipeline mode as the region runs now (db/pipeline.ts: two shared connections, the
// statements of one tick in one write), and Postgres.js (two connections, which it pipelines and whose writes of
// one tick it coalesces). Each runs in a process of its own, so its CPU and write system calls are its own; the
// database's CPU is read from its backends. Part of `npm run bench` (`BENCH_ONLY=drivers`).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client, Pool, types as pgTypes } from 'pg';
import postgres from 'postgres';
import { openDatabase } from '../src/db/database';
import { Pipelines } from '../src/db/pipeline';
import { selectCallerSession } from '../src/http/auth.repository';
import { selectTenantsOfUser } from '../src/modules/tenants/tenants.repository';
import { PostgresCpu } from './costs';
import { percentile } from './load';
import { cpuMillis } from './processes';

const drivers = ['pg', 'pg-pipeline', 'postgres.js'] as const;
type Driver = (typeof drivers)[number];

interface Statement {
  name: string;
  text: string;
  values: unknown[];
}

export interface DriverRow {
  driver: Driver;
  perSecond: number;
  p50: number;
  p99: number;
  nodeUs: number;
  dbUs: number;
  writesPerRequest: number;
}

/** Write system calls this process has made (Linux /proc). */
const writeCalls = () => Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

const INT8 = 20;
const pgTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8 ? Number : pgTypes.getTypeParser(oid, format as 'text')) as typeof pgTypes.getTypeParser;

/** One "request": the session check, then (depending on it, as in the region) the page. */
type Run = (s: Statement) => Promise<unknown[]>;

async function runner(driver: Driver, url: string, connections: number): Promise<{ run: Run; close(): Promise<void> }> {
  if (driver === 'pg') {
    const pool = new Pool({ connectionString: url, max: connections, types: { getTypeParser: pgTypeParser } });
    return { run: async (s) => (await pool.query(s)).rows, close: () => pool.end() };
  }
  if (driver === 'pg-pipeline') {
    // The region's own shared connections (db/pipeline.ts), sending the statements under their names.
    const names = new Map<string, string>();
    class NamedClient extends Client {
      override query(...args: unknown[]): any {
        const [text, values] = args as [string, unknown[]];
        return super.query({ name: names.get(text)!, text, values });
      }
    }
    const pipelines = new Pipelines(
      () => new NamedClient({ connectionString: url, pipeline: true, types: { getTypeParser: pgTypeParser } } as never),
      2,
    );
    return {
      run: async (s) => {
        names.set(s.text, s.name);
        return (await pipelines.query(s.text, s.values)).rows;
      },
      close: () => pipelines.end(),
    };
  }
  const sql = postgres(url, {
    max: 2,
    prepare: true,
    types: { int8: { to: INT8, from: [INT8], serialize: String, parse: Number } } as never,
    onnotice: () => undefined,
  });
  return {
    run: (s) => sql.unsafe(s.text, s.values as never[], { prepare: true }) as unknown as Promise<unknown[]>,
    close: () => sql.end(),
  };
}

/** The texts and values the region sends for the GET, read off its own statements once. */
async function statementsOf(url: string, session: { sessionId: string; userId: number }): Promise<Statement[]> {
  const seen: Statement[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, config: unknown, ...rest: unknown[]) {
    if (typeof config === 'object' && config && 'name' in config) seen.push(config as Statement);
    return (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query;
  const database = await openDatabase({ url, poolSize: 1 });
  try {
    await selectCallerSession(database.db, { sessionId: session.sessionId, tenantId: -1 }, { tenantScoped: false });
    await selectTenantsOfUser(database.db, { userId: session.userId, limit: 10, offset: 0 });
  } finally {
    Client.prototype.query = query;
    await database.close();
  }
  return seen.map(({ name, text, values }) => ({ name, text, values }));
}

async function child(): Promise<void> {
  const { driver, url, statements, seconds, connections } = JSON.parse(process.env.DRIVER_BENCH!) as {
    driver: Driver;
    url: string;
    statements: Statement[];
    seconds: number;
    connections: number;
  };
  const { run, close } = await runner(driver, url, connections);
  const once = async () => {
    const [session] = await run(statements[0]);
    if (!session) throw new Error('the benchmark session is missing');
    await run(statements[1]);
  };
  const loop = async (ms: number, latencies: number[]) => {
    const deadline = performance.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          await once();
          latencies.push(performance.now() - t0);
        }
      }),
    );
  };
  await loop(1_000, []);
  process.send!('warm');
  await new Promise((r) => process.once('message', r));
  const latencies: number[] = [];
  const cpu0 = cpuMillis(process.pid);
  const writes0 = writeCalls();
  const t0 = performance.now();
  await loop(seconds * 1000, latencies);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuMillis(process.pid) - cpu0;
  const writes = writeCalls() - writes0;
  latencies.sort((a, b) => a - b);
  process.send!({
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    nodeUs: (cpu * 1000) / latencies.length,
    writesPerRequest: writes / latencies.length,
  });
  // Connections stay open until the parent has read their backends' CPU.
  await new Promise((r) => process.once('message', r));
  await close();
  process.exit(0);
}

/** Rounds of every driver in turn (so a busy minute falls on all of them); the median of each figure. */
export async function benchDrivers(
  url: string,
  session: { sessionId: string; userId: number },
  seconds: number,
  rounds: number,
  connections = 10,
): Promise<DriverRow[]> {
  const statements = await statementsOf(url, session);
  const database = await PostgresCpu.open(url);
  const results = new Map<Driver, Omit<DriverRow, 'driver'>[]>(drivers.map((d) => [d, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const driver of drivers) {
        const proc = fork(__filename, [], {
          env: { ...process.env, DRIVER_BENCH: JSON.stringify({ driver, url, statements, seconds, connections }) },
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        await new Promise<void>((resolve, reject) => {
          proc.once('message', () => resolve());
          proc.once('exit', (code) => reject(new Error(`${driver} exited ${code}`)));
        });
        const db0 = await database.sample();
        const answer = new Promise<Omit<DriverRow, 'driver' | 'dbUs'> & { requests: number }>((resolve) =>
          proc.once('message', (m) => resolve(m as never)),
        );
        proc.send('go');
        const result = await answer;
        const db1 = await database.sample();
        const exited = new Promise((r) => proc.once('exit', r));
        proc.send('close');
        await exited;
        results.get(driver)!.push({ ...result, dbUs: (PostgresCpu.used(db0, db1) * 1000) / result.requests });
      }
    }
  } finally {
    await database.close();
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
  return drivers.map((driver) => {
    const r = results.get(driver)!;
    return {
      driver,
      perSecond: median(r.map((x) => x.perSecond)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      nodeUs: median(r.map((x) => x.nodeUs)),
      dbUs: median(r.map((x) => x.dbUs)),
      writesPerRequest: median(r.map((x) => x.writesPerRequest)),
    };
  });
}

if (process.env.DRIVER_BENCH) void child();
