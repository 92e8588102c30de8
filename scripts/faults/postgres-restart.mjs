// Fault scenario (npm run test:faults -- <name>): a PostgreSQL restart under load: /readyz answers 503 while it is down, the API recovers without a restart.
import { api, sleep } from '../prove/region.mjs';
import { section, pg, region, signInAnna } from './context.mjs';

export async function scenarioPostgresRestart() {
  const s = section(
    'PostgreSQL restart under load',
    'Eight clients call an authenticated GET in a loop for 30 s; PostgreSQL is stopped (pg_ctl stop -m fast) at 6 s and started again at 14 s. /readyz is polled every 250 ms. The region is not restarted.',
  );
  const url = pg.createDatabase('faults_restart');
  const r = await region({ DATABASE_URL: url, LOG_LEVEL: 'warn', VALIDATE_RESPONSES: 'false' });
  const { token } = await signInAnna(r.baseUrl);
  const pid = r.pid;
  const t0 = Date.now();
  const events = [];
  const ready = [];
  let stopAt = 0;
  let startedAt = 0;
  const until = t0 + 30_000;
  const worker = async () => {
    while (Date.now() < until) {
      const at = Date.now() - t0;
      const res = await api(r.baseUrl, 'GET', '/core/v1/tenants', { token, timeoutMs: 5_000 }).catch((e) => ({
        status: 0,
        body: { error: { code: e.name } },
      }));
      events.push({ at, status: res.status, code: res.body?.error?.code ?? null, ms: Date.now() - t0 - at });
      if (res.status !== 200) await sleep(50);
    }
  };
  const poller = async () => {
    while (Date.now() < until) {
      const at = Date.now() - t0;
      const res = await fetch(`${r.baseUrl}/readyz`, { signal: AbortSignal.timeout(3_000) })
        .then((x) => x.status)
        .catch(() => 0);
      ready.push({ at, status: res });
      await sleep(250);
    }
  };
  const chaos = async () => {
    await sleep(6_000);
    stopAt = Date.now() - t0;
    await pg.stop('fast');
    await sleep(Math.max(0, 14_000 - (Date.now() - t0)));
    await pg.start();
    startedAt = Date.now() - t0;
  };
  await Promise.all([...Array.from({ length: 8 }, worker), poller(), chaos()]);
  const during = ready.filter((x) => x.at > stopAt + 1_000 && x.at < startedAt - 500);
  const firstOkAfter = ready.find((x) => x.at >= startedAt && x.status === 200);
  const recovered = events.filter((e) => e.at >= startedAt && e.status === 200).map((e) => e.at)[0];
  const settled = (firstOkAfter?.at ?? startedAt) + 2_000;
  const after = events.filter((e) => e.at > settled);
  const before = events.filter((e) => e.at + e.ms < stopAt);
  const outage = events.filter((e) => e.at >= stopAt && e.at < (recovered ?? startedAt));
  const codes = {};
  for (const e of outage)
    codes[`${e.status}${e.code ? ` ${e.code}` : ''}`] = (codes[`${e.status}${e.code ? ` ${e.code}` : ''}`] ?? 0) + 1;
  s.figure('PostgreSQL down', `from ${(stopAt / 1000).toFixed(1)} s to ${(startedAt / 1000).toFixed(1)} s`);
  s.check(
    'before the stop, every request answered 200',
    before.length > 0 && before.every((e) => e.status === 200),
    `${before.length} requests`,
  );
  s.check(
    '/readyz answered 503 while PostgreSQL was down',
    during.length > 0 && during.every((x) => x.status === 503),
    `${during.filter((x) => x.status === 503).length}/${during.length} polls answered 503`,
  );
  s.figure('answers while PostgreSQL was down', JSON.stringify(codes));
  s.check(
    'no request hung while PostgreSQL was down (each answered within 5 s)',
    outage.every((e) => e.status !== 0),
    `${outage.filter((e) => e.status === 0).length} timed out`,
  );
  s.check(
    '/readyz answers 200 again after PostgreSQL is back',
    Boolean(firstOkAfter),
    firstOkAfter ? `${((firstOkAfter.at - startedAt) / 1000).toFixed(2)} s after the start` : 'never',
  );
  s.figure(
    'first successful API request after PostgreSQL was back',
    recovered ? `${((recovered - startedAt) / 1000).toFixed(2)} s` : 'none',
  );
  s.check(
    'the API recovered without a restart: every request 2 s after readiness answered 200',
    after.length > 0 && after.every((e) => e.status === 200) && r.child.exitCode === null && r.pid === pid,
    `${after.filter((e) => e.status === 200).length}/${after.length} ok, same process ${r.pid === pid}`,
  );
  if (r.child.exitCode !== null || r.child.signalCode !== null)
    s.figure('the region exited', `${r.child.exitCode ?? r.child.signalCode}: ${r.output.slice(-1500)}`);
  s.check(
    'the region survived the outage',
    r.child.exitCode === null && r.child.signalCode === null,
    r.child.exitCode === null ? '' : `exit ${r.child.exitCode}`,
  );
  const fiveHundreds = outage.filter((e) => e.status === 500).length;
  s.figure(
    'API requests while PostgreSQL was down',
    fiveHundreds
      ? `${fiveHundreds} answered 500 INTERNAL_SERVER_ERROR (the envelope, with a request id); 503 SERVICE_UNAVAILABLE would tell clients to retry (docs/proof.md, open items)`
      : 'none answered 500',
  );
  await r.stop();
}
