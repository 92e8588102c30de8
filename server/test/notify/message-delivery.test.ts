// Delivery of external communication messages by the durable jobs: fan-out without duplicates, retries with
// backoff when a channel fails, several workers, and a worker that stops in the middle of a fan-out.
import request from 'supertest';
import { buildServices } from '../../src/bootstrap';
import { dispatchPolicy, dispatchRetryDelayMs } from '../../src/notify/deliveries';
import { createLogger } from '../../src/logger';
import type { OutgoingMessage } from '../../src/notify/channels';
import type { Services } from '../../src/services';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import {
  dispatchesOf,
  fakeClock,
  insertExternalGroup,
  insertContact,
  insertSenderSettings,
  only,
  outbox,
  scriptChannels,
  ScriptedChannel,
} from '../support/crisis-fixtures';

const clock = fakeClock();
let ctx: TestContext;
let tenant: number;
let token: string;
let overlapA: number;
let overlapB: number;

const send = async (body: Record<string, unknown>) => {
  const res = await request(ctx.app)
    .post('/core/v1/external-communications/messages')
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${token}`)
    .send({ text: 'The school is closed on Friday.', channel: { isEmail: true, isSms: true }, ...body });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const recipients = async (id: number) =>
  (
    await request(ctx.app)
      .get(`/core/v1/external-communications/messages/${id}/recipients?limit=100`)
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${token}`)
  ).body;
/** Another instance of the region: its own services (scheduler, channels) on the same database. */
const anotherInstance = () =>
  buildServices(ctx.config, { database: ctx.database, now: clock.now, logger: createLogger('silent') });
const countBy = (messages: OutgoingMessage[]) =>
  messages.reduce((m, x) => m.set(x.to, (m.get(x.to) ?? 0) + 1), new Map<string, number>());

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
  const user = await insertUser(ctx.services, { tenants: [tenant], permissions: only('cec.maySend') });
  token = (await signIn(ctx.services, user.id)).accessToken;
  await insertSenderSettings(ctx.services, tenant, 'Demo School', 'DemoSchool');
  const both = await insertContact(ctx.services, tenant, {
    name: 'In both groups',
    email: 'both@example.com',
    phone: '+46700000010',
  });
  overlapA = (
    await insertExternalGroup(ctx.services, tenant, 'Overlap A', [
      both,
      { name: 'Only A', email: 'a@example.com', phone: '+46700000011' },
      { name: 'Shares an email', email: 'shared@example.com' },
    ])
  ).id;
  overlapB = (
    await insertExternalGroup(ctx.services, tenant, 'Overlap B', [
      both,
      { name: 'Only B', phone: '+46700000012' },
      { name: 'Shares it too', email: 'shared@example.com' },
    ])
  ).id;
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.services.db.deleteFrom('outbox').execute();
  await ctx.services.db.deleteFrom('jobs').where('status', '=', 'pending').execute();
});

describe('fan-out', () => {
  test('a person in two groups gets one message per channel, and an address two people share gets it once', async () => {
    const id = await send({ externalCommunicationGroupIds: [overlapA, overlapB] });
    await ctx.services.jobs.runDueJobs();
    const email = await outbox(ctx.services, 'email');
    const sms = await outbox(ctx.services, 'sms');
    expect(email.map((m) => m.recipient).sort()).toEqual(['a@example.com', 'both@example.com', 'shared@example.com']);
    expect(sms.map((m) => m.recipient).sort()).toEqual(['+46700000010', '+46700000011', '+46700000012']);
    expect(email[0]).toMatchObject({ subject: 'Message from Demo School', body: 'The school is closed on Friday.' });
    expect(await outbox(ctx.services, 'voice')).toEqual([]);
    const body = await recipients(id);
    expect(body.pagination.totalCount).toBe(5);
    expect(body.data.find((r: { name: string }) => r.name === 'In both groups').externalCommunicationGroupIds).toEqual([
      overlapA,
      overlapB,
    ]);
    // Running the jobs again sends nothing more.
    clock.advance(3_600_000);
    await ctx.services.jobs.runDueJobs();
    expect((await outbox(ctx.services)).length).toBe(6);
  });

  test('includeVoiceCall adds a call to every phone number', async () => {
    const id = await send({
      externalCommunicationGroupIds: [overlapA],
      channel: { isEmail: true, isSms: false },
      includeVoiceCall: true,
    });
    await ctx.services.jobs.runDueJobs();
    expect((await outbox(ctx.services, 'voice')).map((m) => m.recipient).sort()).toEqual([
      '+46700000010',
      '+46700000011',
    ]);
    expect(await outbox(ctx.services, 'sms')).toEqual([]);
    expect(
      (await dispatchesOf(ctx.services, 'cec', id))
        .filter((d) => d.channel === 'voice')
        .every((d) => d.status === 'sent'),
    ).toBe(true);
  });

  test('with a confirmation link, every email and SMS carries its own link and calls carry none', async () => {
    await send({ externalCommunicationGroupIds: [overlapA], includeConfirmationLink: true, includeVoiceCall: true });
    await ctx.services.jobs.runDueJobs();
    const links = (await outbox(ctx.services))
      .filter((m) => m.channel !== 'voice')
      .map((m) => /http:\/\/127\.0\.0\.1:4000\/c\/([A-Za-z0-9_-]{43})/.exec(m.body)?.[1]);
    expect(links).toHaveLength(5);
    expect(links.every(Boolean)).toBe(true);
    expect(new Set(links).size).toBe(5);
    expect((await outbox(ctx.services, 'voice')).every((m) => !m.body.includes('/c/'))).toBe(true);
  });

  test('the message is sent to the groups as they were when it was sent, even if a group changes before delivery', async () => {
    const id = await send({ externalCommunicationGroupIds: [overlapB], channel: { isEmail: false, isSms: true } });
    const late = await insertContact(ctx.services, tenant, { name: 'Added later', phone: '+46700000099' });
    await ctx.services.jobs.runDueJobs();
    await ctx.services.db
      .insertInto('cec_group_members')
      .values({ group_id: overlapB, contact_id: late, tenant_id: tenant })
      .execute();
    clock.advance(60_000);
    await ctx.services.jobs.runDueJobs();
    expect((await recipients(id)).pagination.totalCount).toBe(3);
    await ctx.services.db.deleteFrom('cec_group_members').where('contact_id', '=', late).execute();
  });
});

describe('a channel that fails', () => {
  let instance: Services;
  beforeEach(async () => {
    instance = await anotherInstance();
  });

  test('is retried with backoff (5 s, 10 s, …) until it recovers; nothing is sent twice', async () => {
    const channels = scriptChannels(instance, { sms: 3 * 2 });
    const id = await send({ externalCommunicationGroupIds: [overlapA] });
    await instance.jobs.runDueJobs();
    expect(channels.email.sent.map((m) => m.to).sort()).toEqual([
      'a@example.com',
      'both@example.com',
      'shared@example.com',
    ]);
    expect(channels.sms.sent).toEqual([]);
    let sms = (await dispatchesOf(instance, 'cec', id)).filter((d) => d.channel === 'sms');
    expect(sms.map((d) => [d.status, d.attempts, d.last_error])).toEqual([
      ['queued', 1, 'sms provider unavailable'],
      ['queued', 1, 'sms provider unavailable'],
    ]);
    expect(sms[0].next_attempt_at.getTime() - clock.now().getTime()).toBe(dispatchRetryDelayMs(1));
    expect((await recipients(id)).data.find((r: { name: string }) => r.name === 'Only A').dispatches.bySms).toEqual({
      sentTo: '+46700000011',
      status: 'queued',
      readAt: null,
    });

    for (const attempt of [1, 2]) {
      clock.advance(dispatchRetryDelayMs(attempt) - 1);
      expect(await instance.jobs.runDueJobs()).toBe(0);
      clock.advance(1);
      expect(await instance.jobs.runDueJobs()).toBe(1);
    }
    expect(dispatchRetryDelayMs(1)).toBe(5_000);
    expect(dispatchRetryDelayMs(2)).toBe(10_000);
    clock.advance(dispatchRetryDelayMs(3));
    await instance.jobs.runDueJobs();
    sms = (await dispatchesOf(instance, 'cec', id)).filter((d) => d.channel === 'sms');
    expect(sms.map((d) => [d.status, d.attempts])).toEqual([
      ['sent', 4],
      ['sent', 4],
    ]);
    expect([...countBy(channels.sms.sent).values()]).toEqual([1, 1]);
    expect([...countBy(channels.email.sent).values()]).toEqual([1, 1, 1]);
    expect(channels.sms.calls).toBe(8);
    const job = await instance.db
      .selectFrom('jobs')
      .select('status')
      .where('dedupe_key', '=', `cec:${id}:deliver`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('done');
  });

  test(`that never recovers gives up after ${dispatchPolicy.maxAttempts} attempts and shows the delivery as failed`, async () => {
    const channels = scriptChannels(instance, { email: 1_000 });
    const id = await send({ externalCommunicationGroupIds: [overlapB], channel: { isEmail: true, isSms: false } });
    for (let i = 0; i < 10; i++) {
      await instance.jobs.runDueJobs();
      clock.advance(dispatchPolicy.maxDelayMs);
    }
    expect(channels.email.calls).toBe(2 * dispatchPolicy.maxAttempts);
    const d = await dispatchesOf(instance, 'cec', id);
    expect(d.map((x) => [x.status, x.attempts])).toEqual([
      ['failed', 5],
      ['failed', 5],
    ]);
    expect(
      (await recipients(id)).data.find((r: { name: string }) => r.name === 'In both groups').dispatches.byEmail.status,
    ).toBe('failed');
  });
});

describe('several instances', () => {
  test('two instances working at once send every dispatch of every message exactly once', async () => {
    const one = await anotherInstance();
    const two = await anotherInstance();
    const slow = (name: 'email' | 'sms') => {
      const channel = new ScriptedChannel(name);
      const send = channel.send.bind(channel);
      channel.send = async (m) => {
        await new Promise((r) => setTimeout(r, Math.random() * 2));
        return send(m);
      };
      return channel;
    };
    const channels = [one, two].map((s) => {
      const c = { email: slow('email'), sms: slow('sms') };
      Object.assign(s.notifier, c);
      return c;
    });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await send({ externalCommunicationGroupIds: [overlapA, overlapB] }));
    await Promise.all([one.jobs.runDueJobs(), two.jobs.runDueJobs(), one.jobs.runDueJobs(), two.jobs.runDueJobs()]);
    const all = channels.flatMap((c) => [...c.email.sent, ...c.sms.sent]);
    expect(all).toHaveLength(6 * 6);
    expect(new Set(all.map((m) => m.idempotencyKey)).size).toBe(36);
    // Each carries its dispatch's identity, qualified by the region (regions may share a provider account).
    const rows = (await Promise.all(ids.map((id) => dispatchesOf(ctx.services, 'cec', id)))).flat();
    expect(new Set(all.map((m) => m.idempotencyKey))).toEqual(
      new Set(rows.map((d) => `${ctx.config.region}.dispatch-${d.id}.${d.key_nonce}`)),
    );
    for (const id of ids)
      expect((await dispatchesOf(ctx.services, 'cec', id)).every((d) => d.status === 'sent' && d.attempts === 1)).toBe(
        true,
      );
  });

  test('a message sent while no instance delivers is delivered by the next instance to start', async () => {
    const id = await send({ externalCommunicationGroupIds: [overlapA], channel: { isEmail: false, isSms: true } });
    const restarted = await anotherInstance();
    const channels = scriptChannels(restarted);
    expect(await restarted.jobs.runDueJobs()).toBe(1);
    expect(channels.sms.sent.map((m) => m.to).sort()).toEqual(['+46700000010', '+46700000011']);
    expect((await dispatchesOf(ctx.services, 'cec', id)).every((d) => d.status === 'sent')).toBe(true);
  });

  test('an instance that stops in the middle of a fan-out: after the lease the next one sends the rest, nothing twice', async () => {
    const stalled = await anotherInstance();
    const stalledChannels = scriptChannels(stalled);
    // The stalled instance sends to the first addresses, then hangs on one SMS (as if killed mid-send).
    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    const send2 = stalledChannels.sms.send.bind(stalledChannels.sms);
    let inFlightKey: string | undefined;
    stalledChannels.sms.send = async (m) => {
      if (m.to === '+46700000011') {
        inFlightKey = m.idempotencyKey;
        await hang;
        throw new Error('killed');
      }
      return send2(m);
    };
    const id = await send({ externalCommunicationGroupIds: [overlapA, overlapB] });
    const stalledRun = stalled.jobs.runDueJobs();
    const sendingRows = async () =>
      (await dispatchesOf(ctx.services, 'cec', id)).filter((d) => d.status === 'sending').length;
    for (let i = 0; i < 500 && (await sendingRows()) === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(await sendingRows()).toBeGreaterThan(0);

    const next = await anotherInstance();
    const nextChannels = scriptChannels(next);
    expect(await next.jobs.runDueJobs()).toBe(0);
    // The stalled instance is dead: its heartbeat stops, and its lease runs out.
    stalled.jobs.stopHeartbeat();
    clock.advance(30_000);
    expect(await next.jobs.runDueJobs()).toBe(1);

    release();
    await stalledRun;
    const delivered = [
      ...stalledChannels.email.sent,
      ...stalledChannels.sms.sent,
      ...nextChannels.email.sent,
      ...nextChannels.sms.sent,
    ];
    expect(delivered).toHaveLength(6);
    expect(new Set(delivered.map((m) => `${m.to}`)).size).toBe(6);
    expect(nextChannels.sms.sent.map((m) => m.to)).toContain('+46700000011');
    // The send the stalled instance had in flight is repeated with the same key, so the provider delivers it once.
    expect(inFlightKey).toMatch(/\.dispatch-\d+\.[0-9a-f]{12}$/);
    expect(nextChannels.sms.sent.find((m) => m.to === '+46700000011')?.idempotencyKey).toBe(inFlightKey);
    expect((await dispatchesOf(ctx.services, 'cec', id)).every((d) => d.status === 'sent')).toBe(true);
  });

  test('after a takeover, attempts count the sends, not the claims', async () => {
    // The stalled instance claims the batch and dies before any send is answered (as if killed at that moment).
    const stalled = await anotherInstance();
    const stalledChannels = scriptChannels(stalled);
    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    for (const channel of [stalledChannels.email, stalledChannels.sms])
      channel.send = async () => {
        await hang;
        throw new Error('killed');
      };
    const id = await send({ externalCommunicationGroupIds: [overlapA, overlapB] });
    const stalledRun = stalled.jobs.runDueJobs();
    const sendingRows = async () =>
      (await dispatchesOf(ctx.services, 'cec', id)).filter((d) => d.status === 'sending').length;
    for (let i = 0; i < 500 && (await sendingRows()) < 6; i++) await new Promise((r) => setTimeout(r, 5));
    expect(await sendingRows()).toBe(6);

    const next = await anotherInstance();
    const nextChannels = scriptChannels(next);
    stalled.jobs.stopHeartbeat();
    clock.advance(30_000);
    expect(await next.jobs.runDueJobs()).toBe(1);
    release();
    await stalledRun;
    // One send each, by the instance that took over: one attempt each.
    const sent = [...nextChannels.email.sent, ...nextChannels.sms.sent];
    expect(sent).toHaveLength(6);
    const rows = await dispatchesOf(ctx.services, 'cec', id);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(rows.map(() => ['sent', 1]));
  });
});
