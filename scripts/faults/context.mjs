// What the fault scenarios share: the stand-in providers and the private PostgreSQL of the run, the regions and
// pools to stop at the end, the checks and figures each scenario reports (section), and the helpers that sign in,
// start fan-outs and read dispatches. scripts/faults.mjs starts the services (useServices) and runs the scenarios.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { api, startRegion, waitFor } from '../prove/region.mjs';
import { seedDemo } from '../prove/seed-demo.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

export const password = 'Demo-Password-1!';
export const started = Date.now();
/** The machine's 1-minute load average when the run started (the timings below depend on it). */
export const loadAtStart = loadavg()[0];
export const sections = [];
export let failed = 0;

export function section(title, intro) {
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

export let pg;
export let pgVersion = 'PostgreSQL';
export let smtp;
export let provider;
export const regions = [];
export const clusters = [];
export const pools = [];

export function liveEnv(databaseUrl) {
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
export const regionId = 'eu-north-1';
export const keyOf = (dispatch) => `${regionId}.dispatch-${dispatch.id}.${dispatch.key_nonce}`;

/** What production requires besides the database: secrets (one set per run: a restart keeps them), the sign-in app's URL, live channels. */
export let productionEnv;

/** The demo data, once per database, before its first region starts (production never seeds). */
export const seeded = new Set();
export async function seeding(url) {
  if (seeded.has(url)) return;
  await seedDemo(url, regionId);
  seeded.add(url);
}

/** A region of the production build; `restartOf` starts the same region again (its data directory too). */
export async function region(env, restartOf) {
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

export function pool(url) {
  const p = new Pool({ connectionString: url, max: 3 });
  p.on('error', () => undefined);
  pools.push(p);
  return p;
}

export async function signInAnna(baseUrl) {
  const session = await api(baseUrl, 'POST', '/core/v1/sessions', {
    body: { grantType: 'password', email: 'anna@demo.test', password },
  });
  if (session.status !== 201) throw new Error(`sign-in answered ${session.status} ${JSON.stringify(session.body)}`);
  const tenants = await api(baseUrl, 'GET', '/core/v1/tenants', { token: session.body.accessToken });
  return { token: session.body.accessToken, tenantId: tenants.body.data[0].id };
}

/** A CEC group of the tenant with `n` contacts (direct inserts: contacts come from seed data or imports, no API). */
export async function insertCecGroup(db, tenantId, name, n, contact) {
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

export async function dispatchStates(db, source, messageIds) {
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
export function byDispatchKey(which) {
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
export function receipts(dispatches) {
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
export async function startFanOut(s, db, baseUrl, { token, tenantId, groupId, people, text, timeoutMs }) {
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
export async function checkDeliveredOnce(s, db, { messageId, people, end, afterKill }) {
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

/** The run's shared services, started once by scripts/faults.mjs before the scenarios. */
export function useServices(started) {
  ({ pg, smtp, provider, productionEnv } = started);
  pgVersion = pg.version();
}

/** The services in use (for stopping them at the end). */
export const services = () => ({ pg, smtp, provider });

/** A failure outside any check (the run itself broke). */
export function countFailure() {
  failed++;
}

/** How many checks failed so far. */
export const failures = () => failed;
