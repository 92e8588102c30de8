#!/usr/bin/env node
// Where an authenticated GET's CPU goes: one region of the production build on a private PostgreSQL, as in
// `npm run test:load`, profiled with V8's sampling profiler (--cpu-prof) while closed loops of authenticated GETs
// run, then summarised: self time by where the code lives (the project, each package, Node's internals, garbage
// collection) and the heaviest functions. Run `npm run build` first.
//
//   npm run profile                      # 64 clients for 10 s
//   PROFILE_SECONDS=20 PROFILE_CLIENTS=16 npm run profile
//   PROFILE_BUILD=source npm run profile  # the region as `npm start` runs it: sources through tsx, development
//                                         # defaults (response validation on, logs at info)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { closedLoop } from './prove/load-gen.mjs';
import { startPrivatePostgres } from './prove/postgres.mjs';
import { api, productionLikeEnv, startRegion } from './prove/region.mjs';

const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const clients = Number(process.env.PROFILE_CLIENTS ?? 64);
const fromSource = process.env.PROFILE_BUILD === 'source';
const profileDir = mkdtempSync(join(tmpdir(), 'core-profile-'));
const pg = await startPrivatePostgres({ database: 'profile' });
let region;
const window = { from: 0, to: Number.POSITIVE_INFINITY };
/** What holds the region's memory: resident set, V8's heap (live, and reserved), memory outside the heap. */
async function memory(when) {
  const text = await (await fetch(`${region.baseUrl}/metrics`)).text();
  const value = (name) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1] ?? NaN,
    ) /
    2 ** 20;
  console.log(
    `memory ${when}: RSS ${region.rssMegabytes().toFixed(0)} MB; V8 heap ${value('nodejs_heap_size_used_bytes').toFixed(0)} MB live of ${value('nodejs_heap_size_total_bytes').toFixed(0)} MB reserved; outside the heap (buffers) ${value('nodejs_external_memory_bytes').toFixed(0)} MB`,
  );
}
try {
  region = await startRegion({
    build: fromSource ? 'source' : 'dist',
    env: {
      DATABASE_URL: pg.url,
      ...(fromSource ? { TRUST_PROXY: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' } : productionLikeEnv),
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=200`,
    },
  });
  const session = await api(region.baseUrl, 'POST', '/core/v1/sessions', {
    body: { grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' },
  });
  const token = session.body.accessToken;
  const next = () => ({
    path: '/core/v1/tenants',
    headers: { 'cosafe-core-api-version': '1', authorization: `Bearer ${token}` },
  });
  await memory('after boot');
  await closedLoop({ url: region.baseUrl, connections: 8, durationMs: 3_000, next });
  // V8 stamps its samples with the monotonic clock that process.hrtime reads (Linux): the window is kept apart from
  // start-up and warm-up.
  window.from = Number(process.hrtime.bigint() / 1000n);
  const r = await closedLoop({ url: region.baseUrl, connections: clients, durationMs: seconds * 1_000, next });
  window.to = Number(process.hrtime.bigint() / 1000n);
  await memory(`after ${seconds} s of ${clients} clients`);
  console.log(
    `${clients} clients for ${seconds} s: ${r.perSecond.toFixed(0)} GETs/s, statuses ${JSON.stringify(r.statuses)}, load ${loadavg()[0].toFixed(1)}`,
  );
  await region.stop();
} finally {
  await region?.stop();
  region?.cleanup();
  await pg.stop();
}

const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('the region wrote no profile');
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
rmSync(profileDir, { recursive: true, force: true });

// Self time per node: samples × the interval between them.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i];
  if (at < window.from || at > window.to) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const whereOf = ({ url, functionName }) => {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'V8 and native (program)';
  if (!url) return `native: ${functionName || '(anonymous)'}`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  if (url.includes('/server/dist/')) return `project: ${url.split('/server/dist/')[1].split('/')[0]}`;
  return url;
};
const totals = new Map();
const functions = new Map();
let busy = 0;
for (const [id, t] of self) {
  const frame = byId.get(id).callFrame;
  const where = whereOf(frame);
  if (where === 'idle') continue;
  busy += t;
  totals.set(where, (totals.get(where) ?? 0) + t);
  const fn = `${frame.functionName || '(anonymous)'} (${where}${frame.url ? `:${frame.lineNumber + 1}` : ''})`;
  functions.set(fn, (functions.get(fn) ?? 0) + t);
}
const table = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => `| ${k} | ${((t / busy) * 100).toFixed(1)} % |`)
    .join('\n');
console.log(
  `\nMain thread busy ${(busy / 1e6).toFixed(1)} s of the ${seconds} s window (self time, idle left out; start-up and warm-up left out)\n`,
);
console.log('| Where | Share of busy time |\n|---|---:|\n' + table(totals, 25));
console.log('\n| Function | Share of busy time |\n|---|---:|\n' + table(functions, 30));
