// Repeats collapse in the fan-out: every alarm is accepted and goes off, but alarms of one owner to the same
// recipients within the window after one was delivered reach them as one summary saying how many. Every repeat is
// either delivered or counted in a summary that is sent (a durable job due when the window ends), also when it comes
// at the window's last moment, races the summary, or the instance restarts in between.
import request from 'supertest';
import { buildServices } from '../../src/bootstrap';
import { createLogger } from '../../src/logger';
import type { Services } from '../../src/services';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { fakeClock, insertGroup, only, scriptChannels, type ScriptedChannel } from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
const second = 1_000;
const window = 60 * second;
let ctx: TestContext;
let tenant: number;
let owner: { id: number; token: string };
let other: { id: number; token: string };
let colleague: number;
let neighbour: number;
let team: number;
let channels: Record<'email' | 'sms' | 'voice' | 'push', ScriptedChannel>;

let device = 0;
/** An alarm that goes off now (the panic button), answered 201 like every one. */
async function press(
  who = owner,
  recipients: { recipientUserIds?: number[]; groupIds?: number[] } = {},
  text = 'Help, in the boiler room',
): Promise<number> {
  const res = await request(ctx.app)
    .post('/core/v1/personal-alarms')
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${who.token}`)
    .send({
      sender: { userId: who.id, deviceId: `repeat-device-${++device}` },
      dispatchAt: clock.now().toISOString(),
      active: true,
      text,
      oneMinuteWarning: false,
      recipientUserIds: recipients.recipientUserIds ?? [colleague],
      groupIds: recipients.groupIds ?? [team],
    });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const run = (services: Services = ctx.services) => services.jobs.runDueJobs();
const sms = () => channels.sms.sent;

/** What became of each alarm: delivered on its own, or counted in a summary (and whether that summary was sent). */
async function fate(alarmIds: number[]) {
  const db = ctx.services.db;
  const rows = await db
    .selectFrom('personal_alarm_messages as pm')
    .innerJoin('personal_alarms as a', 'a.id', 'pm.alarm_id')
    .select(['pm.id', 'pm.alarm_id', 'pm.repeat_window_id', 'pm.repeat_generation', 'a.active'])
    .where('pm.alarm_id', 'in', alarmIds)
    .where('pm.kind', '=', 'alarm')
    .execute();
  const sentOf = async (messageId: number) =>
    (
      await db
        .selectFrom('dispatches')
        .select('id')
        .where('source', '=', 'alarm')
        .where('message_id', '=', messageId)
        .where('status', '=', 'sent')
        .execute()
    ).length;
  const delivered: number[] = [];
  const summarised = new Map<number, number>();
  const waiting: number[] = [];
  for (const row of rows) {
    expect(row.active).toBe(false);
    if (row.repeat_window_id === null) {
      if ((await sentOf(row.id)) > 0) delivered.push(row.alarm_id);
      continue;
    }
    const summary = await db
      .selectFrom('personal_alarm_messages')
      .select(['id', 'repeats', 'created_at'])
      .where('kind', '=', 'repeats')
      .where('repeat_window_id', '=', row.repeat_window_id)
      .where('repeat_generation', '=', row.repeat_generation)
      .executeTakeFirst();
    if (summary && (await sentOf(summary.id)) > 0) {
      // Counted in it: the summary says as many as it stands for (an alarm recorded after it is not in it).
      const counted = await db
        .selectFrom('personal_alarm_messages')
        .select('id')
        .where('kind', '=', 'alarm')
        .where('repeat_window_id', '=', row.repeat_window_id)
        .where('repeat_generation', '=', row.repeat_generation)
        .where('created_at', '<=', summary.created_at)
        .execute();
      if (counted.some((c) => c.id === row.id) && counted.length === summary.repeats)
        summarised.set(row.alarm_id, summary.id);
      else waiting.push(row.alarm_id);
    } else waiting.push(row.alarm_id);
  }
  return { recorded: rows.length, delivered, summarised, waiting };
}

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
  const permissions = only('alarms.mayActivate', 'alarms.mayDeactivate');
  const o = await insertUser(ctx.services, { name: 'Olle Owner', tenants: [tenant], permissions });
  owner = { id: o.id, token: (await signIn(ctx.services, o.id)).accessToken };
  const p = await insertUser(ctx.services, { name: 'Petra Other', tenants: [tenant], permissions });
  other = { id: p.id, token: (await signIn(ctx.services, p.id)).accessToken };
  colleague = (await insertUser(ctx.services, { phone: '+46700000201', tenants: [tenant] })).id;
  neighbour = (await insertUser(ctx.services, { phone: '+46700000202', tenants: [tenant] })).id;
  const member = (await insertUser(ctx.services, { phone: '+46700000203', tenants: [tenant] })).id;
  team = await insertGroup(ctx.services, tenant, 'Team', [member]);
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // Each test starts an hour after the last: no window of an earlier test is still open.
  clock.advance(3_600 * second);
  channels = scriptChannels(ctx.services);
});

describe('repeats to the same recipients collapse into one delivery that says how many', () => {
  test('a person pressing panic five times within a minute: every alarm is accepted and goes off, the recipients get the first at once and one summary saying 4 more when the window ends', async () => {
    const start = clock.now();
    const alarms = [await press()];
    await run();
    expect(
      sms()
        .map((m) => m.to)
        .sort(),
    ).toEqual(['+46700000201', '+46700000203']);
    for (let i = 1; i < 5; i++) {
      clock.advance(10 * second);
      alarms.push(await press(owner, {}, `Help, press ${i + 1}`));
      await run();
    }
    // The repeats reached nobody yet, and each is recorded and no longer active.
    expect(sms()).toHaveLength(2);
    let { waiting } = await fate(alarms);
    expect(waiting.sort()).toEqual(alarms.slice(1).sort());

    clock.set(new Date(start.getTime() + window - 1));
    await run();
    expect(sms()).toHaveLength(2);
    clock.set(new Date(start.getTime() + window));
    await run();
    expect(sms()).toHaveLength(4);
    const summary = sms().slice(2);
    expect(summary.map((m) => m.to).sort()).toEqual(['+46700000201', '+46700000203']);
    expect(summary[0].body).toContain('Personal alarm from Olle Owner: Help, press 5');
    expect(summary[0].body).toContain('Alarms repeated since');
    expect(summary[0].body).toContain(': 4.');
    const outcome = await fate(alarms);
    expect(outcome.recorded).toBe(5);
    expect(outcome.delivered).toEqual([alarms[0]]);
    expect([...outcome.summarised.keys()].sort()).toEqual(alarms.slice(1).sort());
    ({ waiting } = outcome);
    expect(waiting).toEqual([]);
  });

  test('a script pressing every 5 seconds for 5 minutes costs the recipients one delivery per window, and every alarm is delivered or counted in exactly one sent summary', async () => {
    const alarms: number[] = [];
    for (let i = 0; i < 60; i++) {
      alarms.push(await press());
      await run();
      clock.advance(5 * second);
    }
    clock.advance(2 * window);
    await run();
    const outcome = await fate(alarms);
    expect(outcome.recorded).toBe(60);
    expect(outcome.waiting).toEqual([]);
    expect(outcome.delivered.length + outcome.summarised.size).toBe(60);
    // 300 s: the first alarm, then a summary at the end of each 60 s window: 1 + 5 deliveries to each of 2.
    expect(outcome.delivered).toEqual([alarms[0]]);
    const summaries = new Set(outcome.summarised.values());
    expect(summaries.size).toBe(5);
    expect(sms()).toHaveLength(2 * (1 + summaries.size));
    const counted = await ctx.services.db
      .selectFrom('personal_alarm_messages')
      .select((eb) => eb.fn.sum<number>('repeats').as('repeats'))
      .where('id', 'in', [...summaries])
      .executeTakeFirstOrThrow();
    expect(Number(counted.repeats)).toBe(59);
  });

  test('a repeat at the last moment of the window, racing its summary, is still summarised (in this summary or the next, which is sent too)', async () => {
    const start = clock.now();
    const alarms = [await press()];
    await run();
    clock.set(new Date(start.getTime() + 30 * second));
    alarms.push(await press());
    await run();
    // One millisecond before the window ends, and the summary and this repeat's alarm claimed in one run.
    clock.set(new Date(start.getTime() + window - 1));
    alarms.push(await press());
    clock.set(new Date(start.getTime() + window));
    await run();
    // At the window's end, after its summary: the next generation, whose summary is sent too.
    alarms.push(await press());
    await run();
    // The summary overdue when a repeat comes (no instance ran it yet): the repeat joins it.
    clock.set(new Date(start.getTime() + 2 * window + 5 * second));
    alarms.push(await press());
    await run();
    clock.advance(2 * window);
    await run();
    const outcome = await fate(alarms);
    expect(outcome.waiting).toEqual([]);
    expect(outcome.delivered).toEqual([alarms[0]]);
    expect([...outcome.summarised.keys()].sort()).toEqual(alarms.slice(1).sort());
  });

  test('a summary due while no instance ran is sent by the instance that starts next (the job is durable)', async () => {
    const start = clock.now();
    const alarms = [await press()];
    await run();
    clock.advance(20 * second);
    alarms.push(await press());
    await run();
    expect(sms()).toHaveLength(2);
    // This instance stops; another starts after the window ended.
    clock.set(new Date(start.getTime() + 10 * window));
    const restarted = await buildServices(ctx.config, {
      database: ctx.database,
      now: clock.now,
      logger: createLogger('silent'),
    });
    const restartedChannels = scriptChannels(restarted);
    await run(restarted);
    expect(restartedChannels.sms.sent.map((m) => m.to).sort()).toEqual(['+46700000201', '+46700000203']);
    expect(restartedChannels.sms.sent[0].body).toContain(': 1.');
    expect((await fate(alarms)).waiting).toEqual([]);
  });

  test('alarms to other recipients, or of another owner, are no repeats: each goes at once', async () => {
    await press();
    await run();
    expect(sms()).toHaveLength(2);
    await press(owner, { recipientUserIds: [neighbour], groupIds: [] });
    await run();
    expect(sms().map((m) => m.to)).toContain('+46700000202');
    await press(other);
    await run();
    expect(sms()).toHaveLength(5);
    expect(
      sms()
        .slice(3)
        .every((m) => m.body.includes('Personal alarm from Petra Other')),
    ).toBe(true);
  });
});

describe('with the window set to 0', () => {
  test('every alarm is delivered on its own', async () => {
    const plain = await createTestContext({ now: clock.now, env: { ALARM_REPEAT_WINDOW_SECONDS: '0' } });
    try {
      const t = await insertTenant(plain.services);
      const o = await insertUser(plain.services, {
        tenants: [t],
        permissions: only('alarms.mayActivate', 'alarms.mayDeactivate'),
      });
      const token = (await signIn(plain.services, o.id)).accessToken;
      const c = (await insertUser(plain.services, { phone: '+46700000299', tenants: [t] })).id;
      const sent = scriptChannels(plain.services);
      for (let i = 0; i < 3; i++) {
        const res = await request(plain.app)
          .post('/core/v1/personal-alarms')
          .set(v1)
          .set('cosafe-tenant-id', String(t))
          .set('authorization', `Bearer ${token}`)
          .send({
            sender: { userId: o.id, deviceId: `plain-device-${i}` },
            dispatchAt: clock.now().toISOString(),
            active: true,
            text: 'Help',
            oneMinuteWarning: false,
            recipientUserIds: [c],
            groupIds: [],
          });
        expect(res.status).toBe(201);
        await plain.services.jobs.runDueJobs();
      }
      expect(sent.sms.sent).toHaveLength(3);
    } finally {
      await plain.close();
    }
  });
});
