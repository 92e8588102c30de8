// `BENCH_ONLY=start`: what a region of `npm start` costs beside the production build. Both regions run on
// embedded PGlite in a data directory of their own, as `npm start` runs them; one from the build (server/dist,
// as the other rows: logs at warn, no response validation), one as scripts/start.mjs starts it (sources through
// tsx, development defaults). Rounds alternate between them, so each pair shares the same minutes of a busy
// machine; the figure is the median of the rounds' ratios. Also the resident memory of the `npm start` region
// after a sign-in and 20 idle seconds (the goal: under 300 MB).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { measure, type Cost } from './costs';
import { load, request } from './load';
import { rssMegabytes, startRegion, startRegionFromSource, stop } from './processes';
import type { Row, RunContext } from './region';

const idleSeconds = 20;
const v1 = { 'cosafe-core-api-version': '1' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1];

async function signIn(port: number): Promise<string> {
  const res = await request(
    port,
    {
      method: 'POST',
      path: '/core/v1/sessions',
      headers: v1,
      body: JSON.stringify({ grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' }),
    },
    new http.Agent({ keepAlive: false }),
  );
  if (res.status !== 201) throw new Error(`sign-in for the benchmark failed: ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { accessToken: string }).accessToken;
}

export async function benchStart(basePort: number, ctx: RunContext): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'core-bench-start-'));
  const built = await startRegion(basePort, { DATA_DIR: join(work, 'built') });
  let source;
  try {
    source = await startRegionFromSource(basePort + 1, { DATA_DIR: join(work, 'source') });
    const regions = [
      { name: 'production build', child: built, port: basePort, token: await signIn(basePort), costs: [] as Cost[] },
      { name: 'npm start', child: source, port: basePort + 1, token: await signIn(basePort + 1), costs: [] as Cost[] },
    ];
    // Idle: V8 gives back what boot and seeding left (its memory reducer runs after some seconds of quiet).
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleRss = rssMegabytes(source.pid!);
    const builtIdleRss = rssMegabytes(built.pid!);
    const get = (r: (typeof regions)[number]) => () => ({
      method: 'GET',
      path: '/core/v1/tenants',
      headers: { ...v1, authorization: `Bearer ${r.token}` },
    });
    const gets = (r: (typeof regions)[number]) => () =>
      load({ port: r.port, connections: 16, durationMs: ctx.seconds * 1000, expectStatus: 200, next: get(r) });
    // Warm up (the JIT compiles the path; the contract's validators are built on first use).
    for (const r of regions) await load({ port: r.port, connections: 8, durationMs: 3000, next: get(r) });
    const ratios: number[] = [];
    for (let i = 0; i < ctx.rounds; i++) {
      for (const r of regions) r.costs.push(await measure({ pid: r.child.pid! }, gets(r)));
      ratios.push(regions[1].costs[i].nodeUs / regions[0].costs[i].nodeUs);
    }
    const load1 = loadavg()[0];
    const rows: Row[] = regions.map((r) => {
      const cost = [...r.costs].sort((a, b) => a.nodeUs - b.nodeUs)[(r.costs.length - 1) >> 1];
      return { load: load1, name: `PGlite on disk, ${r.name}: authenticated GET /tenants`, result: cost.result, cost };
    });
    rows[1].note =
      `Node CPU ${median(ratios).toFixed(2)} × the production build's per request (median of ${ratios.length} ` +
      `rounds taken in turn, range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; goal ≤ 1.3 ×); ` +
      `resident memory after a sign-in and ${idleSeconds} idle seconds ${idleRss} MB (the build's ${builtIdleRss} MB; goal < 300 MB)`;
    return rows;
  } finally {
    await Promise.all([stop(built), source ? stop(source) : undefined]);
    rmSync(work, { recursive: true, force: true });
  }
}
