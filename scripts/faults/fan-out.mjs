// Fault scenario (npm run test:faults -- <name>): kill -9 of a region in the middle of a message fan-out, then a restart.
import { sleep, waitFor } from '../prove/region.mjs';
import {
  section,
  pg,
  smtp,
  provider,
  liveEnv,
  region,
  pool,
  signInAnna,
  insertCecGroup,
  dispatchStates,
  startFanOut,
  checkDeliveredOnce,
} from './context.mjs';

export async function scenarioFanOut() {
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
