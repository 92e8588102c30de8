// `npm run bench`: one run, loopback only, bounded in time. Starts an Express hello world and a region (on
// PostgreSQL when one answers, and on embedded PGlite), measures them side by side, prints the figures with
// their ratios and writes docs/benchmarks.md.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { benchBetterAuth } from './better-auth';
import { medianCost } from './costs';
import { startHello, stop } from './processes';
import { benchRegion, type Row, type RunContext } from './region';
import { argon2VerifyCpuMs } from './sign-in-cost';
import { tokenMissMicros } from './token-cost';
import { load } from './load';
import { benchStart } from './start-cost';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const startLoad = loadavg()[0];
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * `BENCH_ONLY=groups,login` runs only those parts (groups, get, drivers, login, passkey, refresh, better-auth,
 * pglite, start, crisis, web).
 */
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const want = (part: string) => !only || only.includes(part);
const fmt = (n: number, digits = 0) => (Number.isNaN(n) ? '' : n.toFixed(digits));
const databaseUrl = (name: string) => pgUrl.replace(/\/[^/]*$/, `/${name}`);
/** Where the bench's servers listen (four ports from here) and how its databases are named: two runs side by side differ. */
const basePort = Number(process.env.BENCH_PORT ?? 4190);
const dbPrefix = process.env.BENCH_DATABASE_PREFIX ?? 'core_bench';
/** One database per region of the `start` part's PostgreSQL comparison. */
const startDatabases = ['built', 'source', 'source_quiet', 'source_unbounded'].map((v) => `${dbPrefix}_start_${v}`);

async function postgresAvailable(): Promise<boolean> {
  const client = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    for (const name of [dbPrefix, `${dbPrefix}_better_auth`, `${dbPrefix}_crisis`, ...startDatabases]) {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
    }
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main() {
  // The region runs as deployed: the production build (server/dist), made from this tree first.
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const argonMs = await argon2VerifyCpuMs();
  const tokenMiss = await tokenMissMicros(roundCount);
  const helloPort = basePort;
  const hello = await startHello(helloPort);
  const ctx: RunContext = { seconds, rounds: roundCount, want, hello, helloPort, helloCosts: [] };
  const rows: Row[] = [];
  const usePg = await postgresAvailable();
  try {
    await load({ port: helloPort, connections: 8, durationMs: 2000, next: () => ({ method: 'GET', path: '/hello' }) });
    if (usePg)
      rows.push(...(await benchRegion('PostgreSQL', basePort + 1, { DATABASE_URL: databaseUrl(dbPrefix) }, ctx)));
    if (usePg && want('better-auth'))
      rows.push(...(await benchBetterAuth(basePort + 3, databaseUrl(`${dbPrefix}_better_auth`), ctx)));
    if (want('pglite')) rows.push(...(await benchRegion('PGlite', basePort + 2, { DATA_DIR: ':memory:' }, ctx)));
    // `npm start`'s region beside the production build (ports from basePort + 4 to + 7).
    if (want('start'))
      rows.push(
        ...(await benchStart(
          basePort + 4,
          ctx,
          usePg ? (startDatabases.map(databaseUrl) as [string, string, string, string]) : undefined,
        )),
      );
  } finally {
    await stop(hello);
  }
  if (ctx.helloCosts.length) {
    const floor = medianCost(ctx.helloCosts);
    rows.unshift({
      name: 'Express 5 hello world (the floor)',
      result: floor.result,
      cost: floor,
      note: `median of the ${ctx.helloCosts.length} rounds measured beside the region's`,
    });
  }

  let crisis = '';
  if (want('crisis')) {
    try {
      crisis = execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, 'crisis.ts')], {
        env: { ...process.env, ...(usePg ? { BENCH_DATABASE_URL: databaseUrl(`${dbPrefix}_crisis`) } : {}) },
        encoding: 'utf8',
        timeout: 600_000, // the alarms, the warnings and the repeats (whose summaries go a minute later)
      });
    } catch (error) {
      crisis = `crisis benchmark failed: ${(error as Error).message}`;
    }
  }
  console.log(crisis);

  // The sign-in web app's first paint: its own script and section (web/bench/first-paint.ts).
  let web = '';
  if (want('web')) {
    try {
      web = execFileSync(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '..', '..', 'web', 'bench', 'first-paint.ts'), '--markdown'],
        { encoding: 'utf8', timeout: 600_000 },
      );
    } catch (error) {
      web = (error as { stdout?: string }).stdout || `web first-paint benchmark failed: ${(error as Error).message}`;
    }
    console.log(web);
  }

  const table = [
    '| Measurement | req/s | p50 ms | p99 ms | errors | Node CPU µs/req | DB CPU µs/req | round trips/req | load | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${fmt(r.result.perSecond)} | ${fmt(r.result.p50, 1)} | ${fmt(r.result.p99, 1)} | ${r.result.errors} | ${fmt(r.cost?.nodeUs ?? NaN)} | ${fmt(r.cost?.dbUs ?? NaN)} | ${fmt(r.cost?.roundTrips ?? NaN, 1)} | ${r.load === undefined ? '' : fmt(r.load, 1)} | ${r.note ?? ''} |`,
    ),
  ].join('\n');
  const tokenLine = `Access token verification on a cache miss: ${fmt(tokenMiss[(tokenMiss.length - 1) >> 1], 1)} µs CPU (median of ${tokenMiss.length} rounds of 2,000 fresh tokens; range ${fmt(tokenMiss[0], 1)}-${fmt(tokenMiss.at(-1)!, 1)}; goal ≤ 60 µs)`;
  console.log(`\n${table}\n\n${tokenLine}\n`);
  const doc = `# Benchmarks

Produced by \`npm run bench\` (${seconds} s per measurement, ${roundCount} rounds of each cost; \`BENCH_SECONDS\` and \`BENCH_ROUNDS\`
change them). Loopback only: the load generator, the servers and PostgreSQL share this machine, so absolute
numbers are lower than on separate hosts; the ratios, taken within this one run, are what to watch. The region
runs as in production (no response validation, logs at warn), with development seed data.

- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}
- One argon2id verify (m = 19 MiB, t = 2, p = 1): ${fmt(argonMs, 1)} ms CPU
- Databases: ${usePg ? 'PostgreSQL on 127.0.0.1 and ' : ''}PGlite (embedded, in memory)
- Run on ${new Date().toISOString().slice(0, 10)}; the machine's 1-minute load average ${fmt(startLoad, 1)} at the start and ${fmt(loadavg()[0], 1)} at the end, and beside each row when it was measured

${table}

${tokenLine}

How to read it: "Node CPU" is the serving process's CPU per request (all its threads; with PGlite the database
runs inside it), "DB CPU" that of the PostgreSQL backends serving its database, "round trips" the statements it
sent per request (each one round trip to the database); each is the median of the rounds, every round of the
region preceded by a round of the hello world, so their ratio compares the same minutes. The bare client sends
the authenticated GET's own statements, named and prepared, from a connection pool with nothing around them:
the database's floor for that request. "Complete password login" is what the sign-in app does per login (probe
the region, then create the session); thanks to the one-time proof the probe leaves, argon2 runs once per login,
so the CPU per login should stay close to one argon2id verify (goal ≤ 1.15×). "GET while logins run" shows the
event loop stays free while argon2 works on the thread pool.

## Crisis communication (\`server/bench/crisis.ts\`)

\`\`\`
${crisis.trim()}
\`\`\`

${web.trim()}

Reproduce: \`npm run bench\` (PostgreSQL is used when \`BENCH_DATABASE_URL\` or 127.0.0.1:5432 answers).
`;
  if (only) return console.log('BENCH_ONLY is set: docs/benchmarks.md is left as it was');
  writeFileSync(join(__dirname, '..', '..', 'docs', 'benchmarks.md'), doc);
  console.log('wrote docs/benchmarks.md');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
