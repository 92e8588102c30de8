// Fault scenario (npm run test:faults -- <name>): a cluster of instances behind HAProxy: instances killed and restarted under calls.
import { api, sleep, waitFor } from '../prove/region.mjs';
import { haproxyBinary, startCluster } from '../prove/cluster.mjs';
import {
  password,
  section,
  pg,
  smtp,
  provider,
  clusters,
  regionId,
  seeding,
  pool,
  signInAnna,
  insertCecGroup,
  dispatchStates,
  receipts,
  startFanOut,
  checkDeliveredOnce,
  productionEnv,
  liveEnv,
} from './context.mjs';

/** The instance (index) whose process holds the claim `locked_by` (`<host>:<pid>:…`), or -1. */
const holderOf = (cluster, lockedBy) =>
  cluster.instances.findIndex((node) => lockedBy && String(node.pid) === lockedBy.split(':')[1]);

async function clusterCalls(url, token, { clients, untilMs }) {
  const outcomes = { ok: 0, failed: 0, statuses: {} };
  const worker = async () => {
    while (Date.now() < untilMs) {
      const status = await fetch(`${url}/core/v1/tenants`, {
        headers: { 'cosafe-core-api-version': '1', authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      })
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) outcomes.ok++;
      else {
        outcomes.failed++;
        outcomes.statuses[status] = (outcomes.statuses[status] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return outcomes;
}

export async function scenarioCluster() {
  if (!haproxyBinary) {
    section('cluster scenarios: skipped', 'haproxy is not installed (apt-get install haproxy).').check(
      'haproxy installed',
      false,
    );
    return;
  }
  const url = pg.createDatabase('faults_cluster');
  const db = pool(url);
  const startedAt = Date.now();
  await seeding(url);
  const cluster = await startCluster({
    instances: 3,
    databaseUrl: url,
    env: { ...productionEnv, ...liveEnv(url), DATABASE_URL: url },
    region: regionId,
    production: true,
  });
  clusters.push(cluster);
  const intro = `Three instances of ${regionId} started at once on a database holding only the demo data (migrations under an advisory lock) behind HAProxy ${cluster.url} (health check GET /readyz every 500 ms; a request whose connection fails or comes back empty is retried on another instance).`;
  const up = section('a cluster of three instances behind HAProxy', intro);
  up.figure('three instances and HAProxy ready after', `${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  const { token, tenantId } = await signInAnna(cluster.url);
  up.check(
    'sign-in through HAProxy; the token is accepted by every instance',
    (await Promise.all(cluster.instances.map((n) => api(n.baseUrl, 'GET', '/core/v1/tenants', { token })))).every(
      (r) => r.status === 200,
    ),
  );

  // 1. kill -9 of the instance running a 10 000-dispatch fan-out.
  {
    const s = section(
      'cluster: kill -9 of the instance running a 10 000-dispatch fan-out',
      'A message by email and SMS to 5 000 people (10 000 dispatches; the providers answer in 50 ms). Once a quarter is sent, the instance holding the delivery job is killed with SIGKILL and not restarted: a survivor must take the job over when its 3 s lease runs out.',
    );
    const people = 5_000;
    const groupId = await insertCecGroup(db, tenantId, 'Fault test: cluster fan-out', people, {
      email: 'contact#@cluster.test',
      phone: true,
    });
    smtp.behaviour.delayMs = 50;
    provider.behaviour.delayMs = 50;
    smtp.log.clear();
    provider.log.clear();
    const t0 = Date.now();
    const messageId = await startFanOut(s, db, cluster.url, {
      token,
      tenantId,
      groupId,
      people,
      text: 'Fault test: cluster fan-out.',
      timeoutMs: 180_000,
    });
    const {
      rows: [job],
    } = await db.query(`select locked_by from jobs where kind = 'cec.deliver' and payload->>'messageId' = $1`, [
      String(messageId),
    ]);
    const victim = holderOf(cluster, job?.locked_by);
    s.check('the delivery job is held by one of the instances', victim >= 0, job?.locked_by ?? 'no holder');
    await cluster.kill9(Math.max(0, victim));
    const killedAt = Date.now();
    const afterKill = await dispatchStates(db, 'cec', [messageId]);
    s.figure(
      'dispatches at the kill',
      `${afterKill.total} in all: ${afterKill.sent} sent, ${afterKill.sending} claimed for sending, ${afterKill.queued} queued`,
    );
    let resumedAt = 0;
    let end;
    await waitFor(
      'every dispatch to be sent by the survivors',
      async () => {
        end = await dispatchStates(db, 'cec', [messageId]);
        if (!resumedAt && end.sent > afterKill.sent + afterKill.sending) resumedAt = Date.now();
        return end.sent + end.failed === end.total;
      },
      { timeoutMs: 240_000, intervalMs: 100 },
    );
    s.figure(
      'time from the kill until a survivor sends again',
      `${((resumedAt - killedAt) / 1000).toFixed(1)} s (lease 3 s, renewed every second by the holder's heartbeat)`,
    );
    s.check(
      'a survivor took the fan-out over within 5 s',
      resumedAt > 0 && resumedAt - killedAt <= 5_000,
      `${((resumedAt - killedAt) / 1000).toFixed(1)} s`,
    );
    s.figure(
      'whole fan-out',
      `${((Date.now() - t0) / 1000).toFixed(1)} s for ${people * 2} dispatches across the kill`,
    );
    await checkDeliveredOnce(s, db, { messageId, people, end, afterKill });
    await cluster.startInstance(Math.max(0, victim));
    smtp.behaviour.delayMs = 0;
    provider.behaviour.delayMs = 0;
  }

  // 2. 1 000 armed alarms, kill -9 of an instance while they fall due.
  {
    const s = section(
      'cluster: kill -9 with 1 000 armed personal alarms',
      'A thousand alarms armed through HAProxy, all due 20 s later (recipient: one user); an instance is killed with SIGKILL as they fall due and not restarted until they have all fired.',
    );
    const { rows: users } = await db.query(
      `select id, email from users where email in ('anna@demo.test', 'erik@demo.test')`,
    );
    const anna = Number(users.find((u) => u.email === 'anna@demo.test').id);
    const erik = Number(users.find((u) => u.email === 'erik@demo.test').id);
    smtp.log.clear();
    provider.log.clear();
    const count = 1_000;
    const due = Date.now() + 20_000;
    const created = [];
    for (let i = 0; i < count; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, count - i) }, (_, j) =>
          api(cluster.url, 'POST', '/core/v1/personal-alarms', {
            token,
            tenant: tenantId,
            body: {
              sender: { userId: anna, deviceId: `cluster-device-${i + j}` },
              dispatchAt: new Date(due).toISOString(),
              active: true,
              text: `Cluster alarm ${i + j}`,
              oneMinuteWarning: false,
              recipientUserIds: [erik],
              groupIds: [],
            },
          }),
        ),
      );
      created.push(...batch);
    }
    const ids = created.filter((r) => r.status === 201).map((r) => r.body.id);
    s.check(
      '1 000 alarms armed (201)',
      ids.length === count,
      `${ids.length} armed; ${created
        .filter((r) => r.status !== 201)
        .slice(0, 3)
        .map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
        .join('; ')}`,
    );
    s.figure('arming took', `${((Date.now() - (due - 20_000)) / 1000).toFixed(1)} s`);
    await sleep(Math.max(0, due - Date.now() + 300));
    await cluster.kill9(1);
    const killedAt = Date.now();
    await waitFor(
      'every alarm to fire and its dispatches to be sent',
      async () => {
        const { rows } = await db.query(
          `select count(*)::int as n from personal_alarm_messages where kind = 'alarm' and alarm_id = any($1::bigint[])`,
          [ids],
        );
        if (rows[0].n < ids.length) return false;
        const { rows: st } = await db.query(
          `select count(*) filter (where d.status in ('sent', 'failed'))::int as done, count(*)::int as total from dispatches d join personal_alarm_messages m on m.id = d.message_id where d.source = 'alarm' and m.alarm_id = any($1::bigint[])`,
          [ids],
        );
        return st[0].total > 0 && st[0].done === st[0].total;
      },
      { timeoutMs: 240_000, intervalMs: 250 },
    );
    s.figure(
      'all fired and sent',
      `${((Date.now() - due) / 1000).toFixed(1)} s after they were due (${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill)`,
    );
    const { rows: fired } = await db.query(
      `select alarm_id, count(*)::int as n from personal_alarm_messages where kind = 'alarm' and alarm_id = any($1::bigint[]) group by alarm_id`,
      [ids],
    );
    s.check(
      'every alarm fired exactly once',
      fired.length === ids.length && fired.every((f) => f.n === 1),
      `${fired.length} alarms fired, ${fired.filter((f) => f.n > 1).length} more than once`,
    );
    const { rows: ds } = await db.query(
      `select d.id, d.key_nonce, d.status from dispatches d join personal_alarm_messages m on m.id = d.message_id where d.source = 'alarm' and m.alarm_id = any($1::bigint[])`,
      [ids],
    );
    const got = receipts(ds);
    s.check(
      'every alarm dispatch sent and delivered exactly once',
      ds.length > 0 && ds.every((d) => d.status === 'sent') && got.missing === 0 && got.deliveredTwice === 0,
      `${ds.length} dispatches, ${got.deliveries} deliveries, ${got.missing} missing, ${got.deliveredTwice} twice`,
    );
    s.figure(
      'requests repeated at the provider interface',
      `${got.repeatedRequests} of ${got.requests} (sends in flight at the kill, each with its dispatch's key)`,
    );
    await cluster.startInstance(1);
  }

  // 3. A rolling restart of every instance under steady load.
  {
    const s = section(
      'cluster: rolling restart under steady load',
      'Eight clients call an authenticated GET through HAProxy in a loop while each instance in turn gets SIGTERM (its /readyz answers 503 for 1.2 s so HAProxy takes it out, then it stops accepting and finishes what it has), is started again and comes back into rotation.',
    );
    const t0 = Date.now();
    let restarting = true;
    const loadResult = (async () => {
      const outcomes = { ok: 0, failed: 0, statuses: {} };
      while (restarting) {
        const r = await clusterCalls(cluster.url, token, { clients: 8, untilMs: Date.now() + 1_000 });
        outcomes.ok += r.ok;
        outcomes.failed += r.failed;
        for (const [k, v] of Object.entries(r.statuses)) outcomes.statuses[k] = (outcomes.statuses[k] ?? 0) + v;
      }
      return outcomes;
    })();
    for (let n = 0; n < cluster.instances.length; n++) await cluster.restart(n);
    await sleep(1_000);
    restarting = false;
    const outcomes = await loadResult;
    s.figure(
      'requests during the restarts',
      `${outcomes.ok + outcomes.failed} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    s.check(
      'zero failed requests',
      outcomes.failed === 0 && outcomes.ok > 0,
      `${outcomes.ok} succeeded, ${outcomes.failed} failed ${JSON.stringify(outcomes.statuses)}`,
    );
  }

  // 4. Sign-in state shared by every instance.
  {
    const s = section(
      'cluster: lockout and refresh-token reuse across instances',
      'Failed passwords sent to the instances in turn (directly, not through HAProxy) lock the account on every instance; a refresh token rotated on one instance and replayed on another after the 10 s grace revokes the session everywhere.',
    );
    const wrong = [];
    for (let i = 0; i < 7; i++) {
      const node = cluster.instances[i % 3];
      wrong.push(
        (
          await api(node.baseUrl, 'POST', '/core/v1/sessions', {
            body: { grantType: 'password', email: 'maria@demo.test', password: 'Wrong-Password-1!' },
          })
        ).status,
      );
    }
    const right = await api(cluster.instances[2].baseUrl, 'POST', '/core/v1/sessions', {
      body: { grantType: 'password', email: 'maria@demo.test', password },
    });
    s.check(
      'after 5 free failures spread over three instances the account is locked on each (429 with the right password)',
      right.status === 429,
      `wrong: ${wrong.join(' ')}; then the right one: ${right.status} ${right.body?.error?.code ?? ''}`,
    );
    const session = await api(cluster.instances[0].baseUrl, 'POST', '/core/v1/sessions', {
      body: { grantType: 'password', email: 'anna@demo.test', password },
    });
    const rotate = (node, rt) =>
      api(node.baseUrl, 'PUT', `/core/v1/sessions/${session.body.id}`, { headers: { authorization: `Bearer ${rt}` } });
    const first = await rotate(cluster.instances[0], session.body.refreshToken);
    await sleep(10_500);
    const replay = await rotate(cluster.instances[1], session.body.refreshToken);
    const after = await rotate(cluster.instances[2], first.body?.refreshToken);
    s.check(
      'rotation on instance 1, the old token replayed on instance 2 after the grace: refused, and the session is revoked (the new token fails on instance 3)',
      first.status === 200 && replay.status === 401 && after.status === 401,
      `rotate ${first.status}, replay ${replay.status}, new token afterwards ${after.status}`,
    );
  }
  await cluster.stop();
}
