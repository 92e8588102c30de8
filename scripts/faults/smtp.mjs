// Fault scenario (npm run test:faults -- <name>): a slow SMTP server, one slower than the client's timeout, a failing one and a dead address; one-time codes while the SMTP server is down.
import { api, waitFor } from '../prove/region.mjs';
import {
  password,
  section,
  pg,
  smtp,
  liveEnv,
  keyOf,
  region,
  pool,
  signInAnna,
  insertCecGroup,
  dispatchStates,
} from './context.mjs';

export async function scenarioSmtp() {
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
