// The cost of tracing: `node --import tsx server/bench/tracing.ts` (BENCH_DATABASE_URL: a PostgreSQL database
// the run may fill; BENCH_SECONDS per round, 5; BENCH_ROUNDS, 5; BENCH_PORT, the first of five ports, 4195).
// Four regions on the same database serve the authenticated GET /tenants side by side: tracing off, tracing on
// sampling nothing (the instrumentation's own cost), with the default sampler (parent-based, 5 %), and for every
// request; their spans go over OTLP/HTTP (protobuf) to a collector stand-in that answers at once. Rounds alternate
// between the four, so each figure (the serving process's CPU per request, the median of the rounds) compares
// the same minutes.
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { measure, medianCost, type Cost } from './costs';
import { load } from './load';
import { startRegion, stop } from './processes';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const firstPort = Number(process.env.BENCH_PORT ?? 4195);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const v1 = { 'cosafe-core-api-version': '1' };

async function main() {
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL must name a PostgreSQL database the run may fill');
  let exports = 0;
  const collector = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(firstPort, '127.0.0.1', resolve));
  const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${firstPort}` };
  const variants = [
    { name: 'tracing off', env: {} },
    {
      name: 'tracing on, nothing sampled (parentbased_always_off)',
      env: { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_always_off' },
    },
    { name: 'tracing on, default sampler (parent-based, 5 %)', env: otlp },
    {
      name: 'tracing on, every request (parentbased_always_on)',
      env: { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
    },
  ];
  const regions: { name: string; port: number; child: ChildProcess; costs: Cost[]; token: string }[] = [];
  try {
    for (const [i, variant] of variants.entries()) {
      const port = firstPort + 1 + i;
      const child = await startRegion(port, { DATABASE_URL: databaseUrl, ...variant.env });
      regions.push({ name: variant.name, port, child, costs: [], token: '' });
    }
    for (const region of regions) {
      const res = await fetch(`http://127.0.0.1:${region.port}/core/v1/sessions`, {
        method: 'POST',
        headers: { ...v1, 'content-type': 'application/json' },
        body: JSON.stringify({ grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' }),
      });
      if (res.status !== 201) throw new Error(`sign-in answered ${res.status}`);
      region.token = ((await res.json()) as { accessToken: string }).accessToken;
    }
    const run = (region: (typeof regions)[number], durationMs: number) =>
      load({
        port: region.port,
        connections: 16,
        durationMs,
        next: () => ({
          method: 'GET',
          path: '/core/v1/tenants',
          headers: { ...v1, authorization: `Bearer ${region.token}` },
        }),
        expectStatus: 200,
      });
    for (const region of regions) await run(region, 2_000); // warm-up: the JIT compiles the path
    for (let round = 0; round < roundCount; round++)
      for (const region of regions)
        region.costs.push(await measure({ pid: region.child.pid! }, () => run(region, seconds * 1000)));
  } finally {
    await Promise.all(regions.map((r) => stop(r.child)));
    collector.close();
  }
  const off = medianCost(regions[0].costs).nodeUs;
  console.log(
    `Tracing cost, authenticated GET /tenants on PostgreSQL (${cpus().length} × ${cpus()[0]?.model}, Node ${process.version})`,
  );
  console.log(
    `${roundCount} alternating rounds of ${seconds} s, 16 connections each; median per request; ${exports} exports received`,
  );
  for (const region of regions) {
    const cost = medianCost(region.costs);
    const range = region.costs.map((c) => c.nodeUs).sort((a, b) => a - b);
    console.log(
      `  ${region.name}: ${cost.nodeUs.toFixed(0)} µs Node CPU (${(cost.nodeUs / off).toFixed(2)} × off; rounds ${range[0].toFixed(0)}-${range.at(-1)!.toFixed(0)}), ${cost.result.perSecond.toFixed(0)} req/s, p99 ${cost.result.p99.toFixed(1)} ms`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
