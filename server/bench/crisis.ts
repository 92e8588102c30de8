// Crisis-communication figures, in one process (one core: Node's thread, with PGlite's database inside it):
// - POST of a message to 10,000 recipients: the answer time (delivery runs afterwards, in jobs);
// - fan-out: dispatches handed to the channel adapters per second (adapters that only count);
// - 10,000 armed personal alarms due within a window: lag from dispatchAt to the adapter, p50 / p99 / max.
// Run: `node --import tsx server/bench/crisis.ts` (BENCH_DATABASE_URL=postgres://… to run on PostgreSQL).
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createApp } from '../src/app';
import http from 'node:http';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createLogger } from '../src/logger';
import { buildPermissions } from '../src/modules/users/permission-flags';
import type { Channel, ChannelName, OutgoingMessage } from '../src/notify/channels';
import { emailHash } from '../src/security/hashing';
import type { Services } from '../src/services';

const recipients = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const alarms = Number(process.env.BENCH_ALARMS ?? 10_000);
const windowSeconds = Number(process.env.BENCH_ALARM_WINDOW_SECONDS ?? 30);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;

class CountingChannel implements Channel {
  count = 0;
  onSend: (message: OutgoingMessage) => void = () => undefined;
  constructor(readonly name: ChannelName) {}
  async send(message: OutgoingMessage): Promise<void> {
    this.count++;
    this.onSend(message);
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function setUp(): Promise<{ services: Services; tenant: number; userId: number }> {
  const config = loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'warn',
    VALIDATE_RESPONSES: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: null, poolSize: 10 });
  if (databaseUrl) {
    await sql`drop schema public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
  }
  const services = await buildServices(config, { database, logger: createLogger('warn') });
  const { id: tenant } = await services.db
    .insertInto('tenants')
    .values({ name: 'Bench', logo_url: 'https://b.test/l.png', website_url: 'https://b.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: userId } = await services.db
    .insertInto('users')
    .values({
      name: 'Bench Sender',
      title: null,
      email: 'sender@bench.test',
      email_hash: emailHash('sender@bench.test'),
      phone_primary: '+46700000000',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await services.db
    .insertInto('memberships')
    .values({ tenant_id: tenant, user_id: userId, permissions: JSON.stringify(buildPermissions(true)) })
    .execute();
  await services.db
    .insertInto('cec_sender_settings')
    .values({ tenant_id: tenant, email_sender_name: 'Bench', sms_sender_id: 'Bench' })
    .execute();
  return { services, tenant, userId };
}

async function messageFigures(services: Services, tenant: number, userId: number) {
  const { id: group } = await services.db
    .insertInto('cec_groups')
    .values({ tenant_id: tenant, name: 'Everyone' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into cec_contacts (tenant_id, name, email, phone)
            select ${tenant}, 'Contact ' || n, 'contact' || n || '@bench.test', '+4671' || lpad(n::text, 7, '0') from generate_series(1, ${recipients}) n`.execute(
    services.db,
  );
  await sql`insert into cec_group_members (group_id, contact_id, tenant_id) select ${group}, id, ${tenant} from cec_contacts where tenant_id = ${tenant}`.execute(
    services.db,
  );

  const channels = {
    email: new CountingChannel('email'),
    sms: new CountingChannel('sms'),
    voice: new CountingChannel('voice'),
    push: new CountingChannel('push'),
  };
  Object.assign(services.notifier, channels);
  const app = createApp(services);
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  server.keepAliveTimeout = 600_000;
  const port = (server.address() as AddressInfo).port;
  const token = await services.tokens.sign({ userId, sessionId: await session(services, userId) });
  const post = async () => {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/core/v1/external-communications/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'cosafe-core-api-version': '1',
        'cosafe-tenant-id': String(tenant),
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        externalCommunicationGroupIds: [group],
        text: 'Evacuate building B now.',
        channel: { isEmail: true, isSms: true },
        includeConfirmationLink: true,
      }),
    });
    if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
    return performance.now() - started;
  };
  await post(); // warms the validator
  await services.jobs.runDueJobs();
  const postMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    postMs.push(await post());
    const before = channels.email.count + channels.sms.count;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await services.jobs.runDueJobs();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const delivered = channels.email.count + channels.sms.count - before;
    if (delivered !== 2 * recipients) throw new Error(`expected ${2 * recipients} dispatches, got ${delivered}`);
    console.log(
      `  message ${i + 1}: POST ${postMs.at(-1)!.toFixed(0)} ms; ${delivered} dispatches in ${seconds.toFixed(2)} s = ${(delivered / seconds).toFixed(0)}/s (CPU ${((used.user + used.system) / 1e6).toFixed(2)} s)`,
    );
  }
  server.close();
  return postMs.sort((a, b) => a - b);
}

async function session(services: Services, userId: number): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  await services.db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      factors: JSON.stringify({ password: 'verified' }),
      last_refreshed_at: now,
      expires_at: new Date(now.getTime() + 86_400_000),
    })
    .execute();
  return id;
}

/** The person the alarms go to (a member of the tenant with a phone: every alarm is one SMS). */
async function onCallRecipient(services: Services, tenant: number): Promise<number> {
  const { id: recipient } = await services.db
    .insertInto('users')
    .values({
      name: 'On call',
      title: null,
      email: 'oncall@bench.test',
      email_hash: emailHash('oncall@bench.test'),
      phone_primary: '+46700000001',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await services.db
    .insertInto('memberships')
    .values({ tenant_id: tenant, user_id: recipient, permissions: JSON.stringify(buildPermissions(false)) })
    .execute();
  return recipient;
}

/** `count` lone workers of the tenant (no phone: what they get is not counted), their ids in order. */
async function owners(services: Services, tenant: number, tag: string, count: number): Promise<void> {
  await sql`insert into users (name, title, email, email_hash)
            select 'Lone worker ' || n, null, 'owner-' || n || '-' || ${tag} || '@bench.test', 'bench-owner-' || ${tag} || '-' || n
              from generate_series(1, ${count}) n`.execute(services.db);
  await sql`insert into memberships (tenant_id, user_id, permissions)
            select ${tenant}, id, ${JSON.stringify(buildPermissions(false))}::jsonb from users
             where email like ${`owner-%-${tag}@bench.test`}`.execute(services.db);
}

/** How long after an alarm delivered to the same recipients a repeat's summary goes (config fanOut). */
const repeatWindowMs = 60_000;

/**
 * `alarms` armed timers whose alarm (or, for 'warning', whose one-minute warning to the owner) falls due within
 * the window; answers each one's lag from its due time to the channel, and how long before the first was due the
 * scheduler started. The rows are made with their times an hour out and moved to the window in one statement
 * once all exist, so a slow set-up on a loaded machine does not count as lag. 'alarm': one lone worker per alarm,
 * each alarm delivered on its own. 'warning': one owner, warned of each. 'repeats': a tenth as many workers each
 * raising 10 alarms within the window to the same recipient: the first of each is delivered (its lag is `lags`),
 * the other nine are counted into one summary a minute later (`summaryLags`, from the first's due time + 1 min).
 */
async function alarmFigures(services: Services, tenant: number, userId: number, recipient: number, kind: Kind) {
  await services.db.deleteFrom('jobs').where('kind', 'in', ['alarm.fire', 'alarm.warn', 'alarm.repeats']).execute();
  let start = Date.now() + 3_600_000;
  const lags: number[] = [];
  const summaryLags: number[] = [];
  const sms = new CountingChannel('sms');
  // Each alarm's text carries its number, and its number says when it was due (the message's own time is written
  // for a person, in the recipient's language and time zone, to the minute).
  const stepMs = (windowSeconds * 1000) / alarms;
  const warning = kind === 'warning';
  const workers = kind === 'alarm' ? alarms : kind === 'repeats' ? Math.ceil(alarms / 10) : 0;
  const tag = `${kind} ${Date.now()}`;
  const pattern = new RegExp(`boiler room, ${tag} (\\d+)`);
  sms.onSend = (m) => {
    const n = pattern.exec(m.body);
    if (!n) return;
    if (m.body.includes('Alarms repeated since')) {
      const first = ((Number(n[1]) - 1) % workers) + 1;
      summaryLags.push(Date.now() - (start + first * stepMs + repeatWindowMs));
    } else lags.push(Date.now() - (start + Number(n[1]) * stepMs));
  };
  Object.assign(services.notifier, { sms });
  const ownerTag = tag.replace(' ', '-');
  if (workers > 0) await owners(services, tenant, ownerTag, workers);
  // Armed as the API arms them: an alarm row, its recipient and its fire job, or for warnings its warning job a
  // minute before the alarm (bulk-inserted to save set-up time).
  const dueOffset = warning ? sql`interval '1 minute'` : sql`interval '0'`;
  const owner =
    workers > 0
      ? sql`(select id from users where email = 'owner-' || ((n - 1) % ${workers} + 1) || '-' || ${ownerTag} || '@bench.test')`
      : sql`${userId}::bigint`;
  await sql`insert into personal_alarms (tenant_id, user_id, device_id, text, dispatch_at, active, one_minute_warning, created_at, updated_at)
            select ${tenant}, ${owner}, ${tag} || ' device-' || n, 'Alone in the boiler room, ' || ${tag} || ' ' || n,
                   ${new Date(start)}::timestamptz + ${dueOffset} + n * ${stepMs}::float8 * interval '1 millisecond', true, ${warning}, now(), now()
              from generate_series(1, ${alarms}) n`.execute(services.db);
  await sql`insert into personal_alarm_recipient_users (alarm_id, user_id)
            select id, ${recipient} from personal_alarms where text like ${`%${tag} %`}`.execute(services.db);
  await sql`insert into jobs (kind, dedupe_key, payload, run_at, max_attempts)
            select ${warning ? 'alarm.warn' : 'alarm.fire'}, 'alarm:' || id || ':v1:' || ${warning ? 'warn' : 'fire'},
                   jsonb_build_object('alarmId', id, 'version', 1), dispatch_at - ${dueOffset}, ${warning ? 5 : 50}
              from personal_alarms where text like ${`%${tag} %`}`.execute(services.db);
  // Moved into the window now that every row exists.
  const moved = Date.now() + 3_000;
  const shift = sql`${moved - start}::float8 * interval '1 millisecond'`;
  await services.db.transaction().execute(async (trx) => {
    await sql`update personal_alarms set dispatch_at = dispatch_at + ${shift} where text like ${`%${tag} %`}`.execute(
      trx,
    );
    await sql`update jobs set run_at = run_at + ${shift} where kind in ('alarm.fire', 'alarm.warn') and status = 'pending'`.execute(
      trx,
    );
  });
  start = moved;
  services.jobs.start();
  const lead = start + stepMs - Date.now();
  const expected = kind === 'repeats' ? workers : alarms;
  const done = () => lags.length >= expected && (kind !== 'repeats' || summaryLags.length >= workers);
  const deadline = start + windowSeconds * 1000 + (kind === 'repeats' ? repeatWindowMs : 0) + 120_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  await services.jobs.stop();
  if (lags.length < expected) console.log(`  only ${lags.length} of ${expected} ${kind}s went in time`);
  if (kind === 'repeats' && summaryLags.length < workers)
    console.log(`  only ${summaryLags.length} of ${workers} summaries went in time`);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from personal_alarms where text like ${`%${tag} %`} and message_id is not null`.execute(
    services.db,
  );
  return {
    lags: lags.sort((a, b) => a - b),
    summaryLags: summaryLags.sort((a, b) => a - b),
    lead,
    fired: rows[0].n,
    workers,
  };
}

type Kind = 'alarm' | 'warning' | 'repeats';

async function main() {
  const { services, tenant, userId } = await setUp();
  console.log(`Crisis communication on ${databaseUrl ? 'PostgreSQL' : 'PGlite'} (Node ${process.version})`);
  console.log(`A message to ${recipients} recipients by email and SMS (${2 * recipients} dispatches), 5 times:`);
  const post = await messageFigures(services, tenant, userId);
  console.log(`  POST answer: p50 ${percentile(post, 50).toFixed(0)} ms, max ${post.at(-1)!.toFixed(0)} ms`);
  const recipient = await onCallRecipient(services, tenant);
  for (const kind of ['alarm', 'warning', 'repeats'] as const) {
    console.log(
      kind === 'alarm'
        ? `${alarms} armed alarms due within ${windowSeconds} s, one lone worker each:`
        : kind === 'warning'
          ? `${alarms} one-minute warnings due within ${windowSeconds} s:`
          : `${alarms} armed alarms due within ${windowSeconds} s, ${Math.ceil(alarms / 10)} lone workers raising 10 each to the same recipient (repeats):`,
    );
    const { lags, summaryLags, lead, fired, workers } = await alarmFigures(services, tenant, userId, recipient, kind);
    const figures = (l: number[]) => `p50 ${percentile(l, 50)} ms, p99 ${percentile(l, 99)} ms, max ${l.at(-1)} ms`;
    console.log(
      `  lag dispatchAt${kind === 'warning' ? ' − 1 min' : ''} → channel${kind === 'repeats' ? ' (the first of each worker)' : ''}: ${figures(lags)} (the scheduler started ${lead.toFixed(0)} ms before the first was due)`,
    );
    if (kind === 'repeats')
      console.log(
        `  ${fired} of ${alarms} went off; ${workers} delivered on their own, the rest counted into ${summaryLags.length} summaries; summary lag from the first's dispatchAt + 1 min: ${figures(summaryLags)}`,
      );
  }
  await services.database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
