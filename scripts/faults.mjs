#!/usr/bin/env node
// `npm run test:faults`: faults injected into real regions (separate processes) on a private PostgreSQL server, with
// the outbound channels live against stand-in providers on 127.0.0.1 (scripts/prove/sinks.mjs):
//   1. kill -9 of a region in the middle of a message fan-out, then a restart;
//   2. kill -9 with armed personal-alarm timers that fall due while the region is down, then a restart;
//   3. a PostgreSQL restart under load: /readyz answers 503 while it is down, the API recovers without a restart;
//   4. a slow SMTP server, one slower than the client's timeout, a failing one and a dead address; one-time codes
//      while the SMTP server is down.
// Nothing may be lost and nothing may reach a person twice: delivery is at least once at the provider interface
// (a send in flight when a region dies is sent again), and the stand-ins deliver a repeated idempotency key or
// Message-ID once, as the real providers and mail systems do; the checks count what reached the recipient after that
// dedupe, and report the repeats at the interface apart. Results go to docs/faults.md; exit 1 on a failed check.
//   5. a cluster of instances behind HAProxy: instances killed and stopped under calls.
// Each scenario is a file of scripts/faults/ (fan-out, alarms, postgres-restart, smtp, cluster), the helpers they share
// are in scripts/faults/context.mjs and the report in scripts/faults/report.mjs. Name scenarios to run only those:
// `npm run test:faults -- fanout smtp` (no report is written then).
// The regions run the production build as an operator runs it: `npm run build` first, then `node
// server/dist/main.js` in production mode (secrets in the environment, no demo seeding: each database gets the demo
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './prove/region.mjs';
import { startPrivatePostgres } from './prove/postgres.mjs';
import { startHttpSink, startSmtpSink } from './prove/sinks.mjs';
import { clusterSecrets } from './prove/cluster.mjs';
import {
  clusters,
  countFailure,
  failures,
  pools,
  regionId,
  regions,
  section,
  sections,
  services,
  started,
  useServices,
} from './faults/context.mjs';
import { scenarioFanOut } from './faults/fan-out.mjs';
import { scenarioAlarms } from './faults/alarms.mjs';
import { scenarioPostgresRestart } from './faults/postgres-restart.mjs';
import { scenarioSmtp } from './faults/smtp.mjs';
import { scenarioCluster } from './faults/cluster.mjs';
import { writeReport } from './faults/report.mjs';

try {
  console.log('▶ the production build (npm run build)');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  console.log('▶ private PostgreSQL and stand-in providers');
  const pg = await startPrivatePostgres({ database: 'postgres_unused' });
  const smtp = await startSmtpSink();
  const provider = await startHttpSink();
  const productionEnv = {
    ...clusterSecrets(regionId),
    SIGN_IN_APP_URL: 'https://sign-in.example.test',
    WEBAUTHN_RP_ID: 'sign-in.example.test',
    WEBAUTHN_ORIGINS: 'https://sign-in.example.test',
    // Live channels are required in production; the scenarios that send give their own (liveEnv).
    SMTP_URL: smtp.url,
    SMS_API_URL: `${provider.baseUrl}/sms`,
    EMAIL_FROM: 'alerts@example.test',
  };
  useServices({ pg, smtp, provider, productionEnv });
  const only = process.argv.slice(2);
  const scenarios = {
    fanout: scenarioFanOut,
    alarms: scenarioAlarms,
    restart: scenarioPostgresRestart,
    smtp: scenarioSmtp,
    cluster: scenarioCluster,
  };
  for (const [name, run] of Object.entries(scenarios)) {
    if (only.length && !only.includes(name)) continue;
    try {
      await run();
    } catch (error) {
      section(`${name}: did not complete`, String(error.stack ?? error)).check(
        'the scenario ran to the end',
        false,
        String(error.message ?? error).split('\n')[0],
      );
    }
  }
} catch (error) {
  console.error(error);
  countFailure();
} finally {
  for (const c of clusters) await c.stop().catch(() => undefined);
  for (const r of regions) await r.stop().catch(() => undefined);
  for (const r of regions) r.cleanup();
  for (const p of pools) await p.end().catch(() => undefined);
  await services().smtp?.close();
  await services().provider?.close();
  await services().pg?.destroy();
  if (process.argv.length <= 2) writeReport();
}
const total = sections.reduce((n, s) => n + s.checks.length, 0);
console.log(
  `\nfaults took ${((Date.now() - started) / 1000).toFixed(0)} s${process.argv.length <= 2 ? '; written to docs/faults.md' : ''}`,
);
console.log(`${total - failures()} passed, ${failures()} failed`);
process.exit(failures() > 0 ? 1 : 0);
