#!/usr/bin/env node
// `npm run test:load`: a region on a private PostgreSQL server, production-like (no response validation, warn
// logging), driven over loopback:
//   1. capacity of an authenticated GET (GET /core/v1/tenants with an access token: token check, session lookup,
//      the tenant list), closed loops of 1 to 64 clients, 5 s each;
//   2. 60 s at 70 % of that capacity, open loop: no errors allowed; p50 / p99 reported; the region's RSS at the start
//      and the end of the 60 s must not grow by more than 10 %;
//   3. answer times of the probe and the login for known and unknown emails (wrong password both): medians of
//      interleaved runs must be within 10 % of each other.
// Writes docs/load.md; exit 1 when a check fails. LOAD_SECONDS / TIMING_RUNS shorten it for a try-out.
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { closedLoop, openLoop } from './prove/load-gen.mjs';
import { startPrivatePostgres } from './prove/postgres.mjs';
import { api, root, sleep, startRegion } from './prove/region.mjs';

const sustainSeconds = Number(process.env.LOAD_SECONDS ?? 60);
const timingRuns = Number(process.env.TIMING_RUNS ?? 100);
const password = 'Demo-Password-1!';
const started = Date.now();
const checks = [];
const check = (name, ok, detail) => {
  checks.push({ name, ok, detail });
  console.log(`  ${ok ? '✔' : '✘'} ${name} — ${detail}`);
};
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (x) => `${x.toFixed(0)} MB`;

let pg;
let region;
let pgVersion = '';
const report = { capacity: [], confirmed: null, sustained: null, rss: {}, rssSamples: [], timing: [] };

try {
  console.log('▶ private PostgreSQL and a region (production-like: VALIDATE_RESPONSES=false, LOG_LEVEL=warn)');
  pg = await startPrivatePostgres({ database: 'load' });
  pgVersion = pg.version();
  region = await startRegion({
    env: {
      DATABASE_URL: pg.url,
      VALIDATE_RESPONSES: 'false',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      BENCH_USERS: String(timingRuns * 2 + 10),
    },
  });
  report.rss.boot = region.rssMegabytes();
  const session = await api(region.baseUrl, 'POST', '/core/v1/sessions', {
    body: { grantType: 'password', email: 'anna@demo.test', password },
  });
  const token = session.body.accessToken;
  const authGet = () => ({
    path: '/core/v1/tenants',
    headers: { 'cosafe-core-api-version': '1', authorization: `Bearer ${token}` },
  });

  console.log('▶ warm-up, 5 s');
  await closedLoop({ url: region.baseUrl, connections: 8, durationMs: 5_000, next: authGet });

  console.log('▶ capacity: closed loops, 5 s each');
  for (const connections of [1, 2, 4, 8, 16, 32, 64]) {
    const r = await closedLoop({ url: region.baseUrl, connections, durationMs: 5_000, next: authGet });
    report.capacity.push(r);
    console.log(
      `  ${connections} clients: ${r.perSecond.toFixed(0)}/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, errors ${r.errors}`,
    );
  }
  const best = report.capacity.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  // A 5 s step can catch a lucky window (before garbage collection settles, or while the machine is quiet): the
  // capacity is what the best number of clients sustains for 20 s.
  console.log(`  confirming: ${best.connections} clients for 20 s`);
  report.confirmed = await closedLoop({
    url: region.baseUrl,
    connections: best.connections,
    durationMs: 20_000,
    next: authGet,
  });
  const capacity = Math.min(best.perSecond, report.confirmed.perSecond);
  const rate = Math.floor(capacity * 0.7);
  check(
    'capacity measured without errors',
    report.capacity.every((r) => r.errors === 0) && report.confirmed.errors === 0,
    `${capacity.toFixed(0)} requests/s sustained for 20 s at ${best.connections} clients (best 5 s step: ${best.perSecond.toFixed(0)}/s)`,
  );

  console.log(`▶ ${sustainSeconds} s at 70 % of capacity: ${rate} requests/s`);
  await sleep(2_000);
  report.rss.start = region.rssMegabytes();
  const sustained = await openLoop({
    url: region.baseUrl,
    rate,
    durationMs: sustainSeconds * 1000,
    next: authGet,
    onTick: (s) => report.rssSamples.push({ at: Math.round(s), rss: region.rssMegabytes() }),
  });
  report.rss.end = region.rssMegabytes();
  report.sustained = sustained;
  // RSS saw-tooths with garbage collection: compare the medians of the first and the last 10 s, not two instants.
  const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  report.rss.firstMedian = medianOf(report.rssSamples.filter((x) => x.at <= 10).map((x) => x.rss));
  report.rss.lastMedian = medianOf(report.rssSamples.filter((x) => x.at > sustainSeconds - 10).map((x) => x.rss));
  const growth = (report.rss.lastMedian - report.rss.firstMedian) / report.rss.firstMedian;
  console.log(
    `  ${sustained.requests} requests, ${sustained.perSecond.toFixed(0)}/s, p50 ${ms(sustained.p50)}, p99 ${ms(sustained.p99)}, max ${ms(sustained.max)}, generator stalls > 100 ms: ${sustained.stallsOver100ms} (longest ${ms(sustained.maxLagMs)})`,
  );
  check(
    `${sustainSeconds} s at 70 % of capacity without errors`,
    sustained.errors === 0 && sustained.requests >= rate * sustainSeconds * 0.95,
    `${sustained.requests} requests, ${sustained.errors} errors (answers other than 200, time-outs, or beyond ${4096} in flight: ${sustained.dropped}), statuses ${JSON.stringify(sustained.statuses)}`,
  );
  check(
    `p99 at 70 % of capacity is at most 50 ms`,
    sustained.p99 <= 50,
    `p50 ${ms(sustained.p50)}, p99 ${ms(sustained.p99)}, max ${ms(sustained.max)}`,
  );
  check(
    'memory (RSS) grew by less than 10 % over the run',
    growth < 0.1,
    `median of the first 10 s ${mb(report.rss.firstMedian)} → of the last 10 s ${mb(report.rss.lastMedian)} (${(growth * 100).toFixed(1)} %); at the very start ${mb(report.rss.start)}, at the very end ${mb(report.rss.end)}`,
  );

  // Overload: 150 % of capacity. The region must shed the excess with quick 503s (bounded requests in flight, a
  // queue deadline) instead of building a backlog: every answer 200 or 503, answers fast, memory flat.
  const overloadSeconds = Math.max(10, Math.round(sustainSeconds / 3));
  const overRate = Math.floor(capacity * 1.5);
  console.log(`▶ ${overloadSeconds} s at 150 % of capacity: ${overRate} requests/s`);
  const overSamples = [];
  const overload = await openLoop({
    url: region.baseUrl,
    rate: overRate,
    durationMs: overloadSeconds * 1000,
    next: authGet,
    onTick: (t) => overSamples.push({ at: Math.round(t), rss: region.rssMegabytes() }),
  });
  report.overload = { ...overload, rate: overRate, seconds: overloadSeconds };
  const firstOver = medianOf(overSamples.filter((x) => x.at <= 3).map((x) => x.rss));
  const lastOver = medianOf(overSamples.filter((x) => x.at > overloadSeconds - 3).map((x) => x.rss));
  const overGrowth = (lastOver - firstOver) / firstOver;
  report.overload.rss = { first: firstOver, last: lastOver, growth: overGrowth };
  const other = Object.entries(overload.statuses).filter(([k]) => k !== '200' && k !== '503');
  console.log(
    `  ${overload.requests} requests, statuses ${JSON.stringify(overload.statuses)}, p50 ${ms(overload.p50)}, p99 ${ms(overload.p99)}, RSS ${mb(firstOver)} → ${mb(lastOver)}`,
  );
  check(
    '150 %: every answer is 200 or 503 SERVICE_UNAVAILABLE (the excess shed, nothing else fails)',
    other.length === 0 && overload.dropped === 0,
    `statuses ${JSON.stringify(overload.statuses)}, dropped ${overload.dropped}`,
  );
  check(
    '150 %: answers stay fast (p99 at most 1 s: queue deadline 500 ms)',
    overload.p99 <= 1_000,
    `p50 ${ms(overload.p50)}, p99 ${ms(overload.p99)}, max ${ms(overload.max)}`,
  );
  check(
    '150 %: memory (RSS) grew by at most 10 %',
    overGrowth <= 0.1,
    `median of the first 3 s ${mb(firstOver)} → of the last 3 s ${mb(lastOver)} (${(overGrowth * 100).toFixed(1)} %)`,
  );

  console.log(`▶ answer times, known and unknown emails: ${timingRuns} interleaved pairs each`);
  let address = 0;
  const ip = () => `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address++ & 255}`;
  const hash = (email) => createHash('sha256').update(email.toLowerCase()).digest('hex');
  const calls = {
    probe: (email) => ({
      method: 'POST',
      path: `/core/v1/probes/hash/${hash(email)}`,
      body: { password: 'Wrong-Password-1!' },
    }),
    login: (email) => ({
      method: 'POST',
      path: '/core/v1/sessions',
      body: { grantType: 'password', email, password: 'Wrong-Password-1!' },
    }),
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, make] of Object.entries(calls)) {
    const known = [];
    const unknown = [];
    const bodies = new Set();
    for (let i = 0; i < 5; i++)
      await api(region.baseUrl, make(`warm-${i}@example.test`).method, make(`warm-${i}@example.test`).path, {
        body: make(`warm-${i}@example.test`).body,
        headers: { 'x-forwarded-for': ip() },
      });
    for (let i = 0; i < timingRuns; i++) {
      const pair = [
        `bench-${i + 1 + (name === 'login' ? timingRuns : 0)}@demo.test`,
        `nobody-${randomUUID()}@example.test`,
      ];
      if (i % 2) pair.reverse();
      for (const email of pair) {
        const spec = make(email);
        const t = performance.now();
        const res = await api(region.baseUrl, spec.method, spec.path, {
          body: spec.body,
          headers: { 'x-forwarded-for': ip() },
        });
        const took = performance.now() - t;
        bodies.add(`${res.status} ${JSON.stringify(res.body)}`);
        (email.startsWith('bench-') ? known : unknown).push(took);
      }
    }
    const k = median(known);
    const u = median(unknown);
    const diff = Math.abs(k - u) / Math.max(k, u);
    report.timing.push({ name, known: k, unknown: u, diff, answers: [...bodies] });
    check(
      `${name}: same answer for known and unknown emails`,
      bodies.size === 1,
      [...bodies].join(' | ').slice(0, 200),
    );
    check(
      `${name}: median answer times within 10 %`,
      diff <= 0.1,
      `known ${ms(k)}, unknown ${ms(u)} (${(diff * 100).toFixed(1)} % apart)`,
    );
  }
} catch (error) {
  console.error(error);
  check('the load run completed', false, String(error.message ?? error).split('\n')[0]);
} finally {
  await region?.stop();
  region?.cleanup();
  await pg?.destroy();
}

const failed = checks.filter((c) => !c.ok).length;
const best = report.capacity.length ? report.capacity.reduce((a, b) => (b.perSecond > a.perSecond ? b : a)) : null;
const capacity = best && report.confirmed ? Math.min(best.perSecond, report.confirmed.perSecond) : null;
const s = report.sustained;
const lines = [
  '# Load',
  '',
  `Latest run: ${new Date().toISOString()} by \`npm run test:load\` (scripts/load.mjs), ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node.js ${process.version}, ${pgVersion} (a private instance started for the run).`,
  '',
  'One region process on PostgreSQL, production-like (`VALIDATE_RESPONSES=false`, `LOG_LEVEL=warn`; development mode',
  'only for its demo accounts), and the load generator in another process on the same machine, over loopback with',
  'keep-alive connections: the generator takes CPU from the region, so the figures are a floor for a machine of its',
  'own. The request is `GET /core/v1/tenants` with a bearer access token (JWT check, session lookup, the list).',
  '',
  '## Checks',
  '',
  '| Check | Result | Detail |',
  '|---|---|---|',
  ...checks.map((c) => `| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${String(c.detail).replace(/\|/g, '\\|')} |`),
  '',
  '## Capacity (closed loop, 5 s per step)',
  '',
  '| Clients | Requests/s | p50 | p99 | Errors |',
  '|---:|---:|---:|---:|---:|',
  ...report.capacity.map(
    (r) => `| ${r.connections} | ${r.perSecond.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`,
  ),
  '',
  capacity
    ? `Capacity: **${capacity.toFixed(0)} requests/s**, what ${best.connections} clients (the best step) sustained for 20 s (p50 ${ms(report.confirmed.p50)}, p99 ${ms(report.confirmed.p99)}); 70 % of it is the rate below.`
    : '',
  '',
  `## ${sustainSeconds} s at 70 % of capacity (open loop)`,
  '',
  s
    ? [
        `| Rate | Requests | Errors | p50 | p90 | p99 | max |`,
        `|---:|---:|---:|---:|---:|---:|---:|`,
        `| ${s.rate}/s | ${s.requests} | ${s.errors} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} |`,
        '',
        'Latency counts from the moment each request was due (open loop, so a stall cannot hide by sending less).',
        `The generator itself stalled ${s.stallsOver100ms} times for more than 100 ms (longest ${ms(s.maxLagMs)}); its overdue requests then leave at once and count their wait.`,
        '',
        `Memory (RSS of the region): ${mb(report.rss.boot ?? 0)} after boot; ${mb(report.rss.start ?? 0)} at the start and ${mb(report.rss.end ?? 0)} at the end of the ${sustainSeconds} s; medians of the first and the last 10 s **${mb(report.rss.firstMedian ?? 0)} → ${mb(report.rss.lastMedian ?? 0)} (${(((report.rss.lastMedian - report.rss.firstMedian) / report.rss.firstMedian) * 100).toFixed(1)} %)**. RSS rises and falls with garbage collection; every 5 s: ${report.rssSamples
          .filter((x) => x.at % 5 === 0)
          .map((x) => `${x.at} s ${mb(x.rss)}`)
          .join(', ')}.`,
      ].join('\n')
    : 'Not measured (the run stopped earlier).',
  '',
  '## Answer times for known and unknown emails',
  '',
  `Wrong password in both cases, ${timingRuns} interleaved pairs per operation, each request from its own client address and each`,
  'account used once per operation (so the throttles never answer early). Unknown accounts are verified against a dummy',
  'argon2id hash (docs/decisions.md, "Equal work for unknown accounts").',
  '',
  '| Operation | Known (median) | Unknown (median) | Apart |',
  '|---|---:|---:|---:|',
  ...report.timing.map((t) => `| ${t.name} | ${ms(t.known)} | ${ms(t.unknown)} | ${(t.diff * 100).toFixed(1)} % |`),
  '',
  '## Reproduce',
  '',
  '```sh',
  'npm run test:load   # needs /usr/lib/postgresql/*/bin (initdb, pg_ctl); about 3 minutes',
  '```',
  '',
];
writeFileSync(join(root, 'docs', 'load.md'), lines.join('\n'));
console.log(`\nload took ${((Date.now() - started) / 1000).toFixed(0)} s; written to docs/load.md`);
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
