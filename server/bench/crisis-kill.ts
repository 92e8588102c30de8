// `kill -9` in the middle of a fan-out, on PostgreSQL: a worker process delivers a message to 10,000 recipients
// (20,000 dispatches) and is killed without warning; a new instance takes over once the lease has run out.
// Counts what reached the channel adapters: nothing may be lost; repeats are bounded by the sends in flight at the
// kill (each carries the same idempotency key, so a provider that honours it delivers it once).
// Run: BENCH_DATABASE_URL=postgres://… node --import tsx server/bench/crisis-kill.ts
import { fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { sendCecMessage } from '../src/modules/external-communication/external-communication.service';
import { recordingChannel } from './crisis-kill-worker';

const url = process.env.BENCH_DATABASE_URL;
const recipients = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const sentFile = join(tmpdir(), `crisis-kill-${process.pid}.txt`);
const lines = () => (existsSync(sentFile) ? readFileSync(sentFile, 'utf8').split('\n').filter(Boolean) : []);

async function main() {
  if (!url) throw new Error('BENCH_DATABASE_URL is required (a kill -9 test needs a database outside the process)');
  const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: url, LOG_LEVEL: 'warn' });
  let services = await buildServices(config, { logger: createLogger('warn') });
  await sql`drop schema public cascade`.execute(services.db);
  await sql`create schema public`.execute(services.db);
  await services.database.close();
  services = await buildServices(config, { logger: createLogger('warn') });
  const db = services.db;
  const { id: tenant } = await db.insertInto('tenants').values({ name: 'Kill', logo_url: 'https://k.test/l.png', website_url: 'https://k.test' }).returning('id').executeTakeFirstOrThrow();
  const { id: userId } = await db.insertInto('users').values({ name: 'Sender', title: null, email: 's@k.test', email_hash: 's' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('cec_sender_settings').values({ tenant_id: tenant, email_sender_name: 'Kill', sms_sender_id: 'Kill' }).execute();
  const { id: group } = await db.insertInto('cec_groups').values({ tenant_id: tenant, name: 'All' }).returning('id').executeTakeFirstOrThrow();
  await sql`insert into cec_contacts (tenant_id, name, email, phone) select ${tenant}, 'C' || n, 'c' || n || '@k.test', '+4672' || lpad(n::text, 7, '0') from generate_series(1, ${recipients}) n`.execute(db);
  await sql`insert into cec_group_members (group_id, contact_id, tenant_id) select ${group}, id, ${tenant} from cec_contacts`.execute(db);
  const auth = { userId, sessionId: 'bench', factors: {}, permissions: { cec: { maySend: true } } };
  const message = await sendCecMessage(services, auth, tenant, { externalCommunicationGroupIds: [group], text: 'Evacuate now.', channel: { isEmail: true, isSms: true }, includeVoiceCall: false, includeConfirmationLink: true });
  rmSync(sentFile, { force: true });

  const child = fork(join(__dirname, 'crisis-kill-worker.ts'), [], { env: { ...process.env, DATABASE_URL: url, SENT_FILE: sentFile }, execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const total = 2 * recipients;
  while (lines().length < total / 3) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const atKill = lines().length;
  const states = await db.selectFrom('dispatches').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  console.log(`killed after ${atKill} of ${total} sends; dispatch states then: ${states.map((s) => `${s.status} ${s.n}`).join(', ')}`);

  // A new instance, its clock past the dead worker's lease (30 s), finishes the fan-out.
  const later = () => new Date(Date.now() + 31_000);
  const restarted = await buildServices(config, { logger: createLogger('warn'), now: later });
  Object.assign(restarted.notifier, { email: recordingChannel('email', sentFile), sms: recordingChannel('sms', sentFile) });
  await restarted.jobs.runDueJobs();
  const all = lines();
  const unique = new Set(all);
  const sent = await db.selectFrom('dispatches').select((eb) => eb.fn.countAll<number>().as('n')).where('message_id', '=', message.id).where('status', '=', 'sent').executeTakeFirstOrThrow();
  console.log(`after restart: ${unique.size} of ${total} dispatches reached the adapters (lost ${total - unique.size}), ${all.length - unique.size} repeated (sends in flight at the kill), ${sent.n} recorded sent`);
  rmSync(sentFile, { force: true });
  await restarted.database.close();
  await services.database.close();
  if (unique.size !== total) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
