// Fault scenario (npm run test:faults -- <name>): kill -9 with armed personal-alarm timers that fall due while the region is down, then a restart.
import { api, sleep, waitFor } from '../prove/region.mjs';
import {
  section,
  pg,
  smtp,
  provider,
  liveEnv,
  keyOf,
  region,
  pool,
  signInAnna,
  dispatchStates,
  byDispatchKey,
  receipts,
} from './context.mjs';

export async function scenarioAlarms() {
  const s = section(
    'kill -9 with armed personal-alarm timers',
    'Four active alarms due 10 s after they are armed, one moved to a later time, one deactivated; the region is killed 3 s later and stays down until every timer has passed, then starts again.',
  );
  const url = pg.createDatabase('faults_alarms');
  const db = pool(url);
  const r1 = await region(liveEnv(url));
  const { token, tenantId } = await signInAnna(r1.baseUrl);
  const { rows: users } = await db.query(
    `select id, email from users where email in ('anna@demo.test', 'erik@demo.test')`,
  );
  const anna = users.find((u) => u.email === 'anna@demo.test').id;
  const erik = users.find((u) => u.email === 'erik@demo.test').id;
  const { rows: groups } = await db.query(`select id from groups where tenant_id = $1 and name = 'Crisis team'`, [
    tenantId,
  ]);
  smtp.log.clear();
  provider.log.clear();
  const due = Date.now() + 10_000;
  const create = (i, dispatchAt) =>
    api(r1.baseUrl, 'POST', '/core/v1/personal-alarms', {
      token,
      tenant: tenantId,
      body: {
        sender: { userId: Number(anna), deviceId: `fault-device-${i}` },
        dispatchAt: new Date(dispatchAt).toISOString(),
        active: true,
        text: `Fault test alarm ${i}`,
        oneMinuteWarning: true,
        recipientUserIds: [Number(erik)],
        groupIds: groups.map((g) => Number(g.id)),
      },
    });
  const armed = [];
  for (let i = 1; i <= 4; i++) armed.push((await create(i, due)).body);
  const moved = (await create(5, due)).body;
  const movedTo = due + 4_000;
  const patched = await api(r1.baseUrl, 'PATCH', `/core/v1/personal-alarms/${moved.id}`, {
    token,
    tenant: tenantId,
    body: { dispatchAt: new Date(movedTo).toISOString() },
  });
  const stopped = (await create(6, due)).body;
  const deactivated = await api(r1.baseUrl, 'POST', `/core/v1/personal-alarms/${stopped.id}/deactivate`, {
    token,
    tenant: tenantId,
  });
  s.check(
    'six alarms armed, one moved, one deactivated',
    armed.every((a) => a?.id) && patched.status === 200 && deactivated.status === 200,
    `${patched.status} ${deactivated.status}`,
  );
  await sleep(3_000);
  await r1.kill9();
  const killedAt = Date.now();
  await sleep(Math.max(0, movedTo + 3_000 - Date.now()));
  const downFor = Date.now() - killedAt;
  const r2 = await region(liveEnv(url), r1);
  const firing = [...armed.map((a) => a.id), moved.id];
  await waitFor(
    'every due alarm to fire and its dispatches to be sent',
    async () => {
      const { rows } = await db.query(
        `select count(*)::int as n from personal_alarm_messages where kind = 'alarm' and alarm_id = any($1::bigint[])`,
        [firing],
      );
      if (rows[0].n < firing.length) return false;
      const messageIds = (
        await db.query(`select id from personal_alarm_messages where kind = 'alarm' and alarm_id = any($1::bigint[])`, [
          firing,
        ])
      ).rows.map((m) => m.id);
      const st = await dispatchStates(db, 'alarm', messageIds);
      return st.total > 0 && st.sent + st.failed === st.total;
    },
    { timeoutMs: 90_000, intervalMs: 250 },
  );
  s.figure('region down while the timers fell due', `${(downFor / 1000).toFixed(1)} s`);
  const { rows: fired } = await db.query(
    `select a.id, a.active, a.message_id, a.dispatch_at, m.kind, m.created_at, count(*) over (partition by a.id, m.kind) as per_kind
       from personal_alarms a join personal_alarm_messages m on m.alarm_id = a.id where a.id = any($1::bigint[])`,
    [[...firing, stopped.id]],
  );
  const alarmsFired = fired.filter((m) => m.kind === 'alarm');
  s.check(
    'every due alarm fired exactly once after the restart',
    firing.every((id) => alarmsFired.filter((m) => String(m.id) === String(id)).length === 1),
    `${alarmsFired.length} alarm messages for ${firing.length} alarms`,
  );
  s.check(
    'the deactivated alarm never fired',
    !fired.some((m) => String(m.id) === String(stopped.id) && m.kind === 'alarm'),
  );
  const movedRow = alarmsFired.find((m) => String(m.id) === String(moved.id));
  s.check(
    'the moved alarm fired once, at or after its new time',
    Boolean(movedRow) && new Date(movedRow.created_at).getTime() >= movedTo - 1,
    movedRow
      ? `fired ${((new Date(movedRow.created_at).getTime() - movedTo) / 1000).toFixed(1)} s after its new time`
      : 'not fired',
  );
  s.check(
    'fired alarms are no longer active and point at their message',
    alarmsFired.every((m) => m.active === false && m.message_id !== null),
  );
  const lateness = alarmsFired.map((m) => new Date(m.created_at).getTime() - new Date(m.dispatch_at).getTime());
  s.figure(
    'alarms fired late by',
    `${(Math.min(...lateness) / 1000).toFixed(1)}-${(Math.max(...lateness) / 1000).toFixed(1)} s (the region was down when they were due; a late alarm beats a lost one)`,
  );
  const messageIds = (
    await db.query(`select id from personal_alarm_messages where alarm_id = any($1::bigint[])`, [firing])
  ).rows.map((m) => m.id);
  const { rows: ds } = await db.query(
    `select d.id, d.key_nonce, d.status, d.channel, m.kind from dispatches d join personal_alarm_messages m on m.id = d.message_id where d.source = 'alarm' and d.message_id = any($1::bigint[])`,
    [messageIds],
  );
  const delivered = byDispatchKey('delivered');
  const got = receipts(ds);
  s.check(
    'every alarm dispatch sent, each delivered to its recipient exactly once',
    ds.length > 0 &&
      ds.every((d) => d.status === 'sent' && delivered.get(keyOf(d)) === 1) &&
      got.deliveries === ds.length,
    `${ds.length} dispatches (${ds.filter((d) => d.kind === 'alarm').length} alarm, ${ds.filter((d) => d.kind === 'warning').length} warning), ${got.deliveries} deliveries, ${got.missing} never delivered, ${got.deliveredTwice} delivered twice`,
  );
  s.figure(
    'requests repeated at the provider interface',
    `${got.repeatedRequests} of ${got.requests} (${got.repeatedDispatches} dispatches), each with its dispatch's key`,
  );
  const { rows: stoppedDispatches } = await db.query(
    `select count(*)::int as n from dispatches d join personal_alarm_messages m on m.id = d.message_id where d.source = 'alarm' and m.alarm_id = $1 and m.kind = 'alarm'`,
    [stopped.id],
  );
  s.check('nothing was sent for the deactivated alarm', stoppedDispatches[0].n === 0);
  await r2.stop();
}
