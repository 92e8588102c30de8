// `kill -9` in the middle of a fan-out, on PostgreSQL: a worker process delivers a message to 10,000 recipients
// (20,000 dispatches) and is killed without warning; a new instance takes over once the lease has run out.
// The channel adapters are replaced by a recording model of the providers (RecordingProvider in
// crisis-kill-worker.ts): every request is recorded, and a repeated idempotency key is answered without a second
// delivery, as the providers must (docs/decisions.md, "Dispatches"). Reports what was delivered once after that
// dedupe and how many requests were repeated with the same key (the sends in flight at the kill). Exits 1 if any
// dispatch was never delivered, or any key or address was delivered twice after the dedupe.
// Run: BENCH_DATABASE_URL=postgres://… node --import tsx server/bench/crisis-kill.ts
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { dispatchIdempotencyKey } from '../src/notify/deliveries';
import { createLogger } from '../src/logger';
import { sendCecMessage } from '../src/modules/external-communication/external-communication.service';
import { readRequests, RecordingProvider } from './crisis-kill-worker';

const url = process.env.BENCH_DATABASE_URL;
const recipients = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const sentFile = join(tmpdir(), `crisis-kill-${process.pid}.txt`);

async function main() {
  if (!url) throw new Error('BENCH_DATABASE_URL is required (a kill -9 test needs a database outside the process)');
  const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: url, LOG_LEVEL: 'warn' });
  let services = await buildServices(config, { logger: createLogger('warn') });
  await sql`drop schema public cascade`.execute(services.db);
  await sql`create schema public`.execute(services.db);
  await services.database.close();
  services = await buildServices(config, { logger: createLogger('warn') });
  const db = services.db;
  const { id: tenant } = await db
    .insertInto('tenants')
    .values({ name: 'Kill', logo_url: 'https://k.test/l.png', website_url: 'https://k.test' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: userId } = await db
    .insertInto('users')
    .values({ name: 'Sender', title: null, email: 's@k.test', email_hash: 's' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('cec_sender_settings')
    .values({ tenant_id: tenant, email_sender_name: 'Kill', sms_sender_id: 'Kill' })
    .execute();
  const { id: group } = await db
    .insertInto('cec_groups')
    .values({ tenant_id: tenant, name: 'All' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into cec_contacts (tenant_id, name, email, phone) select ${tenant}, 'C' || n, 'c' || n || '@k.test', '+4672' || lpad(n::text, 7, '0') from generate_series(1, ${recipients}) n`.execute(
    db,
  );
  await sql`insert into cec_group_members (group_id, contact_id, tenant_id) select ${group}, id, ${tenant} from cec_contacts`.execute(
    db,
  );
  const auth = { userId, sessionId: 'bench', factors: {}, permissions: { cec: { maySend: true } } };
  const message = await sendCecMessage(services, auth, tenant, {
    externalCommunicationGroupIds: [group],
    text: 'Evacuate now.',
    channel: { isEmail: true, isSms: true },
    includeVoiceCall: false,
    includeConfirmationLink: true,
  });
  rmSync(sentFile, { force: true });

  const child = fork(join(__dirname, 'crisis-kill-worker.ts'), [], {
    env: { ...process.env, DATABASE_URL: url, SENT_FILE: sentFile },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const total = 2 * recipients;
  while (readRequests(sentFile).length < total / 3) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const atKill = readRequests(sentFile).length;
  const states = await db
    .selectFrom('dispatches')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const sendingAtKill = Number(states.find((s) => s.status === 'sending')?.n ?? 0);
  console.log(
    `killed after ${atKill} of ${total} sends; dispatch states then: ${states.map((s) => `${s.status} ${s.n}`).join(', ')}`,
  );

  // A new instance, its clock past the dead worker's lease (30 s), finishes the fan-out.
  const later = () => new Date(Date.now() + 31_000);
  const restarted = await buildServices(config, { logger: createLogger('warn'), now: later });
  const provider = new RecordingProvider(sentFile);
  Object.assign(restarted.notifier, { email: provider.channel('email'), sms: provider.channel('sms') });
  await restarted.jobs.runDueJobs();

  const requests = readRequests(sentFile);
  const rows = await db
    .selectFrom('dispatches')
    .select(['id', 'status', 'key_nonce'])
    .where('source', '=', 'cec')
    .where('message_id', '=', message.id)
    .execute();
  const expected = new Set(rows.map((d) => dispatchIdempotencyKey(config.region, d)));
  const count = (list: string[]) => list.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
  const deliveredByKey = count(requests.filter((r) => r.delivered).map((r) => r.key));
  const deliveredByAddress = count(requests.filter((r) => r.delivered).map((r) => `${r.channel} ${r.to}`));
  const keysByAddress = new Map<string, Set<string>>();
  for (const r of requests)
    keysByAddress.set(`${r.channel} ${r.to}`, (keysByAddress.get(`${r.channel} ${r.to}`) ?? new Set()).add(r.key));
  const once = [...expected].filter((k) => deliveredByKey.get(k) === 1).length;
  const missing = [...expected].filter((k) => !deliveredByKey.has(k)).length;
  const keysTwice = [...deliveredByKey.values()].filter((n) => n > 1).length;
  const addressesTwice = [...deliveredByAddress.values()].filter((n) => n > 1).length;
  const foreign = [...deliveredByKey.keys()].filter((k) => !expected.has(k)).length;
  const repeated = requests.length - count(requests.map((r) => r.key)).size;
  const sameKey = [...keysByAddress.values()].every((keys) => keys.size === 1 && !keys.has(''));
  const sent = rows.filter((d) => d.status === 'sent').length;
  console.log(
    `after restart: ${once} of ${total} dispatches delivered once after the provider's dedupe ` +
      `(missing ${missing}, keys delivered twice ${keysTwice}, addresses delivered twice ${addressesTwice}, unknown keys ${foreign}); ${sent} recorded sent`,
  );
  console.log(
    `requests repeated at the provider interface with the same key: ${repeated} of ${requests.length} ` +
      `(≤ ${sendingAtKill} claimed 'sending' at the kill: ${repeated <= sendingAtKill ? 'yes' : 'NO'}; one key per address: ${sameKey ? 'yes' : 'NO'})`,
  );
  rmSync(sentFile, { force: true });
  await restarted.database.close();
  await services.database.close();
  if (rows.length !== total || missing > 0 || keysTwice > 0 || addressesTwice > 0 || foreign > 0 || !sameKey)
    process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
