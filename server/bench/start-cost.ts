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

interface Variant {
  name: string;
  /** From the build (as the other rows run it) or from the sources as `npm start` runs them. */
  from: 'build' | 'source';
  env: Record<string, string>;
  /** From the sources without the memory bounds of scripts/region-runtime.mjs (as `npm start` ran before). */
  unbounded?: boolean;
}

/**
 * The rows of one comparison: each variant's authenticated GET /tenants, rounds taken in turn, each variant's Node
 * CPU per request against the first's (the build's) in the same round.
 */
async function compare(label: string, basePort: number, ctx: RunContext, variants: Variant[], memory: boolean) {
  const started: { variant: Variant; child: Awaited<ReturnType<typeof startRegion>>; port: number }[] = [];
  try {
    for (const [i, variant] of variants.entries()) {
      const port = basePort + i;
      const child =
        variant.from === 'build'
          ? await startRegion(port, variant.env)
          : await startRegionFromSource(port, variant.env);
      started.push({ variant, child, port });
    }
    const regions: ((typeof started)[number] & { token: string; costs: Cost[] })[] = [];
    for (const s of started) regions.push({ ...s, token: await signIn(s.port), costs: [] as Cost[] });
    // Idle: V8 gives back what boot and seeding left (its memory reducer runs after some seconds of quiet).
    if (memory) await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleRss = regions.map((r) => rssMegabytes(r.child.pid!));
    const get = (r: (typeof regions)[number]) => () => ({
      method: 'GET',
      path: '/core/v1/tenants',
      headers: { ...v1, authorization: `Bearer ${r.token}` },
    });
    const gets = (r: (typeof regions)[number]) => () =>
      load({ port: r.port, connections: 16, durationMs: ctx.seconds * 1000, expectStatus: 200, next: get(r) });
    // Warm up (the JIT compiles the path; the contract's validators are built on first use).
    for (const r of regions) await load({ port: r.port, connections: 8, durationMs: 3000, next: get(r) });
    for (let i = 0; i < ctx.rounds; i++)
      for (const r of regions) r.costs.push(await measure({ pid: r.child.pid! }, gets(r)));
    const load1 = loadavg()[0];
    return regions.map((r, v): Row => {
      const cost = [...r.costs].sort((a, b) => a.nodeUs - b.nodeUs)[(r.costs.length - 1) >> 1];
      const ratios = r.costs.map((c, i) => c.nodeUs / regions[0].costs[i].nodeUs);
      const notes = [];
      if (v > 0)
        notes.push(
          `Node CPU ${median(ratios).toFixed(2)} × the production build's per request (median of ${ratios.length} ` +
            `rounds taken in turn, range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}; goal ≤ 1.3 ×)`,
        );
      if (memory)
        notes.push(`resident memory after a sign-in and ${idleSeconds} idle seconds ${idleRss[v]} MB (goal < 300 MB)`);
      return {
        load: load1,
        name: `${label}, ${r.variant.name}: authenticated GET /tenants`,
        result: cost.result,
        cost,
        note: notes.join('; '),
      };
    });
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
  }
}

/**
 * `npm start`'s region beside the production build on PGlite in a data directory (as `npm start` runs it), with
 * its memory; and, when PostgreSQL answers, the same on PostgreSQL, where the region's own CPU is not diluted by
 * the embedded database's, with a third region from the sources with the build's settings (logs at warn, no
 * response validation): what running from the sources costs by itself.
 */
export async function benchStart(basePort: number, ctx: RunContext, databaseUrls?: [string, string, string, string]) {
  const work = mkdtempSync(join(tmpdir(), 'core-bench-start-'));
  try {
    const rows = await compare(
      'PGlite on disk',
      basePort,
      ctx,
      [
        { name: 'production build', from: 'build', env: { DATA_DIR: join(work, 'built') } },
        { name: 'npm start', from: 'source', env: { DATA_DIR: join(work, 'source') } },
      ],
      true,
    );
    if (databaseUrls)
      rows.push(
        ...(await compare(
          'PostgreSQL',
          basePort,
          ctx,
          [
            { name: 'production build', from: 'build', env: { DATABASE_URL: databaseUrls[0] } },
            {
              name: 'from the sources, development defaults (as npm start)',
              from: 'source',
              env: { DATABASE_URL: databaseUrls[1], DATA_DIR: join(work, 'pg-source') },
            },
            {
              name: "from the sources, the build's settings (logs at warn, no response validation)",
              from: 'source',
              env: {
                DATABASE_URL: databaseUrls[2],
                DATA_DIR: join(work, 'pg-source-quiet'),
                LOG_LEVEL: 'warn',
                VALIDATE_RESPONSES: 'false',
              },
            },
            {
              name: "from the sources, the build's settings, V8's young generation unbounded (as npm start before)",
              from: 'source',
              unbounded: true,
              env: {
                DATABASE_URL: databaseUrls[3],
                DATA_DIR: join(work, 'pg-source-unbounded'),
                LOG_LEVEL: 'warn',
                VALIDATE_RESPONSES: 'false',
              },
            },
          ],
          false,
        )),
      );
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
