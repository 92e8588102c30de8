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
// The regions run the production build as an operator runs it: `npm run build` first, then `node
// server/dist/main.js` in production mode (secrets in the environment, no demo seeding: each database gets the demo
// data from the compiled seeder before its first region starts, scripts/prove/seed-demo.mjs).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { api, root, sleep, startRegion, waitFor } from './prove/region.mjs';
import { startPrivatePostgres } from './prove/postgres.mjs';
import { haproxyBinary, startCluster } from './prove/cluster.mjs';
import { startHttpSink, startSmtpSink } from './prove/sinks.mjs';
import { clusterSecrets } from './prove/cluster.mjs';
import { seedDemo } from './prove/seed-demo.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

const password = 'Demo-Password-1!';
const started = Date.now();
/** The machine's 1-minute load average when the run started (the timings below depend on it). */
const loadAtStart = loadavg()[0];
const sections = [];
let failed = 0;

function section(title, intro) {
  const s = { title, intro, checks: [], figures: [] };
  sections.push(s);
  console.log(`\n▶ ${title}`);
  return {
    check(name, ok, detail = '') {
      s.checks.push({ name, ok, detail });
      if (!ok) failed++;
      console.log(`  ${ok ? '✔' : '✘'} ${name}${detail ? ` — ${detail}` : ''}`);
    },
    figure(name, value) {
      s.figures.push({ name, value });
      console.log(`  · ${name}: ${value}`);
    },
  };
}

let pg;
let pgVersion = 'PostgreSQL';
let smtp;
let provider;
const regions = [];
const clusters = [];
const pools = [];

function liveEnv(databaseUrl) {
  return {
    DATABASE_URL: databaseUrl,
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'alerts@example.test',
    SMS_API_URL: `${provider.baseUrl}/sms`,
    VOICE_API_URL: `${provider.baseUrl}/voice`,
    PUSH_API_URL: `${provider.baseUrl}/push`,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '1',
  };
}

/** The region every live scenario runs as; its dispatches carry `<region>.dispatch-<id>.<nonce>` (dispatchIdempotencyKey). */
const regionId = 'eu-north-1';
const keyOf = (dispatch) => `${regionId}.dispatch-${dispatch.id}.${dispatch.key_nonce}`;

/** What production requires besides the database: secrets (one set per run: a restart keeps them), the sign-in app's URL, live channels. */
let productionEnv;

/** The demo data, once per database, before its first region starts (production never seeds). */
const seeded = new Set();
async function seeding(url) {
  if (seeded.has(url)) return;
  await seedDemo(url, regionId);
  seeded.add(url);
}

/** A region of the production build; `restartOf` starts the same region again (its data directory too). */
async function region(env, restartOf) {
  await seeding(env.DATABASE_URL);
  const r = await startRegion({
    env: { ...productionEnv, ...env },
    dataDir: restartOf?.dataDir,
    region: regionId,
    production: true,
  });
  regions.push(r);
  return r;
}

function pool(url) {
  const p = new Pool({ connectionString: url, max: 3 });
  p.on('error', () => undefined);
  pools.push(p);
  return p;
}

async function signInAnna(baseUrl) {
  const session = await api(baseUrl, 'POST', '/core/v1/sessions', {
    body: { grantType: 'password', email: 'anna@demo.test', password },
  });
  if (session.status !== 201) throw new Error(`sign-in answered ${session.status} ${JSON.stringify(session.body)}`);
  const tenants = await api(baseUrl, 'GET', '/core/v1/tenants', { token: session.body.accessToken });
  return { token: session.body.accessToken, tenantId: tenants.body.data[0].id };
}

/** A CEC group of the tenant with `n` contacts (direct inserts: contacts come from seed data or imports, no API). */
async function insertCecGroup(db, tenantId, name, n, contact) {
  const { rows } = await db.query('insert into cec_groups (tenant_id, name) values ($1, $2) returning id', [
    tenantId,
    name,
  ]);
  const groupId = rows[0].id;
  await db.query(
    `with c as (
       insert into cec_contacts (tenant_id, name, email, phone)
       select $1, 'Contact ' || i, ${contact.email ? `replace($3, '#', i::text)` : 'null'}, ${contact.phone ? `'+4670' || lpad(i::text, 7, '0')` : 'null'}
         from generate_series(1, $2::int) i
       returning id)
     insert into cec_group_members (group_id, contact_id, tenant_id) select $4, c.id, $1 from c`,
    [tenantId, n, contact.email ?? '', groupId],
  );
  return Number(groupId);
}

async function dispatchStates(db, source, messageIds) {
  const { rows } = await db.query(
    `select status, count(*)::int as n, max(attempts)::int as max_attempts from dispatches where source = $1 and message_id = any($2::bigint[]) group by status`,
    [source, messageIds],
  );
  const out = { total: 0, queued: 0, sending: 0, sent: 0, failed: 0, maxAttempts: 0 };
  for (const r of rows) {
    out[r.status] = r.n;
    out.total += r.n;
    out.maxAttempts = Math.max(out.maxAttempts, r.max_attempts);
  }
  return out;
}

/**
 * Per idempotency key, from both stand-in providers: `accepted` counts requests the provider interface accepted
 * (repeats included), `delivered` what reached the recipient after the provider's dedupe.
 */
function byDispatchKey(which) {
  const byKey = new Map();
  for (const sink of [smtp, provider])
    for (const [key, n] of sink.log[which]()) if (key) byKey.set(key, (byKey.get(key) ?? 0) + n);
  return byKey;
}

/**
 * What the stand-ins saw for the given dispatches: deliveries after dedupe (missing, delivered twice, in all, and
 * deliveries of anything else), the requests repeated at the interface, and, for a scenario that sends each
 * address one message, whether every request to one address and channel carried one and the same key (and, for
 * email, one Message-ID): a repeat under another identity would not be recognised by the provider.
 */
function receipts(dispatches) {
  const keys = new Set(dispatches.map((d) => keyOf(d)));
  const delivered = byDispatchKey('delivered');
  const attempts = [...smtp.log.attempts.map((a) => ({ ...a, channel: 'email' })), ...provider.log.attempts];
  const mine = attempts.filter((a) => keys.has(a.key));
  const addresses = new Set(mine.map((a) => `${a.channel}\n${a.to}`));
  const perAddress = new Map();
  for (const a of attempts) {
    const id = `${a.channel}\n${a.to}`;
    if (!addresses.has(id)) continue;
    const seen = perAddress.get(id) ?? { keys: new Set(), messageIds: new Set(), delivered: 0 };
    seen.keys.add(a.key);
    if (a.delivered) seen.delivered++;
    if (a.messageId !== undefined) seen.messageIds.add(a.messageId);
    perAddress.set(id, seen);
  }
  const perKey = new Map();
  for (const a of mine) perKey.set(a.key, (perKey.get(a.key) ?? 0) + 1);
  return {
    missing: [...keys].filter((k) => !delivered.has(k)).length,
    deliveredTwice: [...keys].filter((k) => (delivered.get(k) ?? 0) > 1).length,
    deliveries: [...keys].reduce((n, k) => n + (delivered.get(k) ?? 0), 0),
    otherDeliveries: attempts.filter((a) => a.delivered && !keys.has(a.key)).length,
    requests: mine.length,
    repeatedRequests: mine.length - perKey.size,
    repeatedDispatches: [...perKey.values()].filter((n) => n > 1).length,
    oneIdentityPerAddress: [...perAddress.values()].every(
      (p) => p.keys.size === 1 && !p.keys.has(null) && p.messageIds.size <= 1,
    ),
    addressesDeliveredTwice: [...perAddress.values()].filter((p) => p.delivered > 1).length,
  };
}

/**
 * Sends a message by email and SMS to the group and waits until a quarter of its dispatches are sent (the moment a
 * scenario kills an instance). Answers the message id.
 */
async function startFanOut(s, db, baseUrl, { token, tenantId, groupId, people, text, timeoutMs }) {
  const sent = await api(baseUrl, 'POST', '/core/v1/external-communications/messages', {
    token,
    tenant: tenantId,
    body: { externalCommunicationGroupIds: [groupId], text, channel: { isEmail: true, isSms: true } },
  });
  s.check('the message is accepted (201)', sent.status === 201, `${sent.status}`);
  const messageId = sent.body.id;
  await waitFor(
    'a quarter of the dispatches to be sent',
    async () => {
      const now = await dispatchStates(db, 'cec', [messageId]);
      return now.total === people * 2 && now.sent >= now.total / 4;
    },
    { timeoutMs, intervalMs: 50 },
  );
  return messageId;
}

/**
 * After a fan-out crossed a kill: every dispatch sent, one per person and channel, each delivered to its recipient
 * exactly once after the provider's dedupe, and repeats only for the sends that were in flight at the kill.
 */
async function checkDeliveredOnce(s, db, { messageId, people, end, afterKill }) {
  s.check(
    'nothing lost: every dispatch is sent',
    end.sent === people * 2 && end.failed === 0,
    `${end.sent} sent, ${end.failed} failed of ${people * 2}`,
  );
  const { rows: dupes } = await db.query(
    `select count(*)::int as n from (select 1 from dispatches where source = 'cec' and message_id = $1 group by channel, sent_to having count(*) > 1) d`,
    [messageId],
  );
  s.check('one dispatch per person and channel', dupes[0].n === 0, `${dupes[0].n} duplicated`);
  const { rows: ids } = await db.query(
    `select id, key_nonce from dispatches where source = 'cec' and message_id = $1`,
    [messageId],
  );
  const got = receipts(ids);
  s.check(
    "every dispatch delivered to its recipient exactly once (after the provider's dedupe)",
    ids.length === people * 2 &&
      got.missing === 0 &&
      got.deliveredTwice === 0 &&
      got.deliveries === ids.length &&
      got.otherDeliveries === 0 &&
      got.addressesDeliveredTwice === 0,
    `${got.deliveries} deliveries for ${ids.length} dispatches: ${got.missing} never delivered with their key, ${got.deliveredTwice} delivered twice, ${got.addressesDeliveredTwice} people reached twice on one channel, ${got.otherDeliveries} deliveries under another key`,
  );
  s.check(
    "requests repeated at the provider interface (informative): only sends in flight at the kill, each with its dispatch's key",
    got.repeatedRequests <= afterKill.sending && got.oneIdentityPerAddress,
    `${got.repeatedRequests} of ${got.requests} requests were repeats (${got.repeatedDispatches} dispatches; ≤ ${afterKill.sending} claimed 'sending' when the region died); ${got.oneIdentityPerAddress ? 'every request to an address carried one key (email: one Message-ID)' : 'requests to one address carried different keys'}`,
  );
}

async function scenarioFanOut() {
  const s = section(
    'kill -9 during a message fan-out',
    'A message by email and SMS to 1 500 people (3 000 dispatches); the providers answer in 100-150 ms, so the fan-out takes seconds. The region is killed with SIGKILL once a quarter is sent, then started again.',
  );
  const url = pg.createDatabase('faults_fanout');
  const db = pool(url);
  const r1 = await region(liveEnv(url));
  const { token, tenantId } = await signInAnna(r1.baseUrl);
  const people = 1_500;
  const groupId = await insertCecGroup(db, tenantId, 'Fault test: fan-out', people, {
    email: 'contact#@fanout.test',
    phone: true,
  });
  smtp.behaviour.delayMs = 100;
  provider.behaviour.delayMs = 150;
  smtp.log.clear();
  provider.log.clear();
  const messageId = await startFanOut(s, db, r1.baseUrl, {
    token,
    tenantId,
    groupId,
    people,
    text: 'Fault test: the water supply is interrupted.',
    timeoutMs: 120_000,
  });
  await r1.kill9();
  const afterKill = await dispatchStates(db, 'cec', [messageId]);
  s.figure(
    'dispatches at the kill',
    `${afterKill.total} in all: ${afterKill.sent} sent, ${afterKill.sending} claimed for sending (at most 64 sends in flight at once), ${afterKill.queued} queued`,
  );
  s.check(
    'the kill landed in the middle of the fan-out',
    afterKill.sent > 0 && afterKill.sent < afterKill.total,
    `${afterKill.sent}/${afterKill.total} sent`,
  );
  await sleep(1_000);
  const restartedAt = Date.now();
  const r2 = await region(liveEnv(url), r1);
  let end;
  await waitFor(
    'every dispatch to be sent again after the restart',
    async () => {
      end = await dispatchStates(db, 'cec', [messageId]);
      return end.sent + end.failed === end.total;
    },
    { timeoutMs: 150_000, intervalMs: 250 },
  );
  s.figure(
    'time from restart to the last dispatch sent',
    `${((Date.now() - restartedAt) / 1000).toFixed(1)} s (a dead worker's claim expires after its 3 s lease)`,
  );
  await checkDeliveredOnce(s, db, { messageId, people, end, afterKill });
  s.figure(
    'provider receipts',
    `email ${JSON.stringify(smtp.log.summary())}, SMS ${JSON.stringify(provider.log.summary())}`,
  );
  const { rows: jobs } = await db.query(
    `select status, attempts from jobs where kind = 'cec.deliver' and payload->>'messageId' = $1`,
    [String(messageId)],
  );
  s.check('the delivery job finished', jobs.length === 1 && jobs[0].status === 'done', JSON.stringify(jobs));
  await r2.stop();
  smtp.behaviour.delayMs = 0;
  provider.behaviour.delayMs = 0;
}

async function scenarioAlarms() {
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

async function scenarioPostgresRestart() {
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

async function scenarioSmtp() {
  const s = section(
    'slow and failing SMTP server',
    'One message by email to four groups whose domains the stand-in SMTP server treats differently: slow.test answers after 3 s; timeout.test holds the first attempt 20 s (longer than the 15 s the SMTP channel means to wait) and then answers at once; flaky.test refuses the first two attempts with 451; dead.test refuses the recipient with 550 for ever. Then a one-time code while the SMTP server is down.',
  );
  const url = pg.createDatabase('faults_smtp');
  const db = pool(url);
  const r = await region(liveEnv(url));
  const { token, tenantId } = await signInAnna(r.baseUrl);
  smtp.log.clear();
  smtp.behaviour.byDomain = {
    'slow.test': { delayMs: 3_000 },
    'timeout.test': { firstAttemptDelayMs: 20_000 },
    'flaky.test': { failFirstAttempts: 2 },
    'dead.test': { rejectRecipient: true },
  };
  const groups = {
    slow: await insertCecGroup(db, tenantId, 'SMTP slow', 10, { email: 'slow#@slow.test' }),
    timeout: await insertCecGroup(db, tenantId, 'SMTP timeout', 2, { email: 'late#@timeout.test' }),
    flaky: await insertCecGroup(db, tenantId, 'SMTP flaky', 5, { email: 'flaky#@flaky.test' }),
    dead: await insertCecGroup(db, tenantId, 'SMTP dead', 1, { email: 'gone#@dead.test' }),
  };
  const sent = await api(r.baseUrl, 'POST', '/core/v1/external-communications/messages', {
    token,
    tenant: tenantId,
    body: {
      externalCommunicationGroupIds: Object.values(groups),
      text: 'Fault test: SMTP.',
      channel: { isEmail: true, isSms: false },
    },
  });
  const messageId = sent.body.id;
  const t0 = Date.now();
  let st;
  await waitFor(
    'every email dispatch to be sent or given up',
    async () => {
      st = await dispatchStates(db, 'cec', [messageId]);
      return st.total === 18 && st.sent + st.failed === st.total;
    },
    { timeoutMs: 180_000, intervalMs: 500 },
  );
  s.figure('time until every email was sent or given up', `${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const { rows } = await db.query(
    `select id, key_nonce, sent_to, status, attempts, last_error from dispatches where source = 'cec' and message_id = $1`,
    [messageId],
  );
  const accepted = smtp.log.accepted();
  const delivered = smtp.log.delivered();
  const of = (domain) => rows.filter((d) => d.sent_to.endsWith(`@${domain}`));
  const once = (d) => delivered.get(keyOf(d)) === 1;
  s.check(
    'slow server: all 10 sent on the first attempt, each delivered once',
    of('slow.test').every((d) => d.status === 'sent' && d.attempts === 1 && once(d)),
    JSON.stringify(of('slow.test').map((d) => d.attempts)),
  );
  const late = of('timeout.test');
  const { rows: lateTimes } = await db.query(
    `select extract(epoch from d.sent_at - m.sent_at)::float as seconds from dispatches d join cec_messages m on m.id = d.message_id where d.source = 'cec' and d.message_id = $1 and d.sent_to like '%@timeout.test'`,
    [messageId],
  );
  s.check(
    'server holding the first attempt 20 s: sent, each delivered once',
    late.every((d) => d.status === 'sent' && once(d)),
    JSON.stringify(
      late.map((d) => ({
        attempts: d.attempts,
        accepted: accepted.get(keyOf(d)) ?? 0,
        delivered: delivered.get(keyOf(d)) ?? 0,
      })),
    ),
  );
  const waited = Math.max(...lateTimes.map((t) => t.seconds));
  s.figure(
    'server holding the first attempt 20 s: the region waited',
    late.every((d) => d.attempts > 1)
      ? `${waited.toFixed(1)} s until sent: the client gave up after its 15 s timeout and sent again; the server accepted both (the first answer came too late), the same Message-ID made it one delivery`
      : `${waited.toFixed(1)} s for the answer on the first attempt — the client's 15 s SMTP timeout did not apply`,
  );
  s.check(
    'failing server (451 twice): sent on the third attempt, delivered once',
    of('flaky.test').every((d) => d.status === 'sent' && d.attempts === 3 && once(d)),
    JSON.stringify(of('flaky.test').map((d) => d.attempts)),
  );
  s.check(
    'dead address (550): given up after 5 attempts, never accepted',
    of('dead.test').every((d) => d.status === 'failed' && d.attempts === 5 && !accepted.has(keyOf(d))),
    JSON.stringify(of('dead.test').map((d) => ({ status: d.status, attempts: d.attempts }))),
  );
  const listed = await api(
    r.baseUrl,
    'GET',
    `/core/v1/external-communications/messages/${messageId}/recipients?limit=100`,
    { token, tenant: tenantId },
  );
  const statuses = {};
  for (const rec of listed.body.data ?? [])
    statuses[rec.dispatches.byEmail?.status] = (statuses[rec.dispatches.byEmail?.status] ?? 0) + 1;
  s.check(
    'the API shows 17 sent and 1 failed',
    statuses.sent === 17 && statuses.failed === 1,
    JSON.stringify(statuses),
  );

  smtp.behaviour.byDomain = {};
  smtp.behaviour.down = true;
  const erik = await api(r.baseUrl, 'POST', '/core/v1/sessions', {
    body: { grantType: 'password', email: 'erik@demo.test', password },
  });
  const t1 = Date.now();
  const refused = await api(r.baseUrl, 'POST', `/core/v1/sessions/${erik.body.id}/challenges`, {
    token: erik.body.accessToken,
    body: { otpEmail: true },
    timeoutMs: 30_000,
  });
  s.check(
    'a one-time code while SMTP is down answers 503 SERVICE_UNAVAILABLE',
    refused.status === 503 && refused.body?.error?.code === 'SERVICE_UNAVAILABLE',
    `${refused.status} ${refused.body?.error?.code} after ${((Date.now() - t1) / 1000).toFixed(1)} s`,
  );
  smtp.behaviour.down = false;
  smtp.log.clear();
  const retried = await api(r.baseUrl, 'POST', `/core/v1/sessions/${erik.body.id}/challenges`, {
    token: erik.body.accessToken,
    body: { otpEmail: true },
  });
  s.check(
    'once SMTP is back the user may ask again at once, and gets one email',
    retried.status === 201 && smtp.log.summary().delivered === 1,
    `${retried.status}, ${smtp.log.summary().delivered} email`,
  );
  await r.stop();
}

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

async function scenarioCluster() {
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

function writeReport() {
  const lines = [
    '# Fault injection',
    '',
    `Latest run: ${new Date().toISOString()} by \`npm run test:faults\` (scripts/faults.mjs), ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node.js ${process.version}, ${pgVersion} (a private instance started for the run); load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (other work shared the machine).`,
    '',
    'Each region is a real process of the production build (`npm run build`, then `node server/dist/main.js` in production',
    'mode, secrets in the environment; the demo data written into each database beforehand by the compiled seeder) on a',
    'private PostgreSQL server (initdb + pg_ctl in a temp directory, a free loopback port), with `NOTIFY_TRANSPORT=live`',
    'against stand-in providers on 127.0.0.1 (an SMTP server, and an HTTP API for SMS, voice and push). Every dispatch',
    `carries its identity on every attempt: \`idempotency-key\` (HTTP) / \`X-Idempotency-Key\` (email) = \`<region>.dispatch-<id>.<nonce>\``,
    '(here `' +
      keyOf({ id: '<id>', key_nonce: '<nonce>' }) +
      '`), and for email the Message-ID `<key@sender domain>`. Delivery is at least once at the',
    'provider interface: a send in flight when a region dies (or answered after the client gave up) is sent again',
    '(docs/decisions.md, "Dispatches"). The stand-ins behave like the real providers: the HTTP API answers a key it has',
    'already accepted with success and does not deliver again; the SMTP server accepts a repeated Message-ID for a',
    'mailbox and delivers it once. They record every request. "Nothing sent twice" is checked at two levels: the',
    'database never holds two dispatches of one message to one address and channel, and each dispatch is delivered to',
    'its recipient exactly once after that dedupe; the requests repeated at the interface are reported apart (each',
    'scenario starts with fresh provider accounts).',
    '',
  ];
  for (const s of sections) {
    lines.push(`## ${s.title}`, '', s.intro, '', '| Check | Result | Detail |', '|---|---|---|');
    for (const c of s.checks)
      lines.push(`| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${String(c.detail).replace(/\|/g, '\\|')} |`);
    if (s.figures.length) {
      lines.push('', ...s.figures.map((f) => `- ${f.name}: ${f.value}`));
    }
    lines.push('');
  }
  lines.push(
    '## Reproduce',
    '',
    '```sh',
    'npm run test:faults   # needs /usr/lib/postgresql/*/bin (initdb, pg_ctl) and haproxy; builds first (npm run build)',
    '```',
    '',
  );
  writeFileSync(join(root, 'docs', 'faults.md'), lines.join('\n'));
}

try {
  console.log('▶ the production build (npm run build)');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  console.log('▶ private PostgreSQL and stand-in providers');
  pg = await startPrivatePostgres({ database: 'postgres_unused' });
  pgVersion = pg.version();
  smtp = await startSmtpSink();
  provider = await startHttpSink();
  productionEnv = {
    ...clusterSecrets(regionId),
    SIGN_IN_APP_URL: 'https://sign-in.example.test',
    WEBAUTHN_RP_ID: 'sign-in.example.test',
    WEBAUTHN_ORIGINS: 'https://sign-in.example.test',
    // Live channels are required in production; the scenarios that send give their own (liveEnv).
    SMTP_URL: smtp.url,
    SMS_API_URL: `${provider.baseUrl}/sms`,
    EMAIL_FROM: 'alerts@example.test',
  };
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
  failed++;
} finally {
  for (const c of clusters) await c.stop().catch(() => undefined);
  for (const r of regions) await r.stop().catch(() => undefined);
  for (const r of regions) r.cleanup();
  for (const p of pools) await p.end().catch(() => undefined);
  await smtp?.close();
  await provider?.close();
  await pg?.destroy();
  if (process.argv.length <= 2) writeReport();
}
const total = sections.reduce((n, s) => n + s.checks.length, 0);
console.log(
  `\nfaults took ${((Date.now() - started) / 1000).toFixed(0)} s${process.argv.length <= 2 ? '; written to docs/faults.md' : ''}`,
);
console.log(`${total - failed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
