// Attack: a member changes a colleague's personal alarm (moves it to 2030, rewrites its text, makes herself its only
// recipient, or silences it). Only the owner may change or start their alarm; a tenant administrator holding the
// alarm permission may act for them (operator). Every change is recorded, and the owner hears of changes by others.
import request from 'supertest';
import { dispatchPolicy } from '../../src/notify/deliveries';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { fakeClock, insertGroup, only, scriptChannels, type ScriptedChannel } from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
let ctx: TestContext;
let tenant: number;
type Who = { id: number; token: string };
let erik: Who;
let maria: Who;
let stopper: Who;
let operator: Who;
let colleague: number;
let channels: Record<'email' | 'sms' | 'voice' | 'push', ScriptedChannel>;

const base = '/core/v1/personal-alarms';
const as = (who: Who) => {
  const set = (r: request.Test) =>
    r.set(v1).set('cosafe-tenant-id', String(tenant)).set('authorization', `Bearer ${who.token}`);
  return {
    post: (path: string, body?: object) => set(request(ctx.app).post(`${base}${path}`)).send(body),
    patch: (path: string, body: object) => set(request(ctx.app).patch(`${base}${path}`)).send(body),
  };
};
let device = 0;
async function eriksAlarm(active = true): Promise<number> {
  const res = await as(erik).post('', {
    sender: { userId: erik.id, deviceId: `erik-device-${++device}` },
    dispatchAt: '2026-11-22T09:30:00.000Z',
    active,
    text: 'Home visit at Storgatan 12',
    oneMinuteWarning: false,
    recipientUserIds: [colleague],
    groupIds: [],
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
const alarmRow = (id: number) =>
  ctx.services.db.selectFrom('personal_alarms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const recipientsOf = async (id: number) =>
  (
    await ctx.services.db
      .selectFrom('personal_alarm_recipient_users')
      .select('user_id')
      .where('alarm_id', '=', id)
      .execute()
  ).map((r) => r.user_id);
const changesOf = (id: number) =>
  ctx.services.db
    .selectFrom('personal_alarm_changes')
    .select(['actor_id', 'action', 'changes', 'created_at'])
    .where('alarm_id', '=', id)
    .orderBy('id')
    .execute();
const user = async (
  name: string,
  permissions: ReturnType<typeof only>,
  admin = false,
  language?: string,
): Promise<Who> => {
  const u = await insertUser(ctx.services, { name, tenants: [tenant], permissions });
  if (admin)
    await ctx.services.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', u.id).execute();
  if (language)
    await ctx.services.db
      .insertInto('user_settings')
      .values({
        user_id: u.id,
        preferred_language: language as 'sv',
        receive_emails: true,
        notify_checklists: true,
        notify_documents: true,
      })
      .execute();
  return { id: u.id, token: (await signIn(ctx.services, u.id)).accessToken };
};

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  channels = scriptChannels(ctx.services);
  tenant = await insertTenant(ctx.services);
  erik = await user('Erik Owner', only('alarms.mayActivate', 'alarms.mayDeactivate'), false, 'sv');
  maria = await user('Maria Member', only('alarms.mayActivate', 'alarms.mayDeactivate'));
  stopper = await user('Sam Stopper', only('alarms.mayDeactivate'));
  operator = await user('Olga Operator', only('alarms.mayActivate', 'alarms.mayDeactivate'), true);
  colleague = (await insertUser(ctx.services, { tenants: [tenant] })).id;
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.services.jobs.runDueJobs();
  for (const channel of Object.values(channels)) channel.sent.length = 0;
});

describe("a member cannot change a colleague's personal alarm", () => {
  test('moving it to 2030, rewriting its text and taking over its recipients answers 403 and changes nothing', async () => {
    const id = await eriksAlarm();
    const before = await alarmRow(id);
    const res = await as(maria).patch(`/${id}`, {
      dispatchAt: '2030-01-01T00:00:00.000Z',
      text: 'All fine, ignore',
      recipientUserIds: [maria.id],
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: "Only the alarm's owner or an administrator of the tenant may change this personal alarm",
    });
    expect(await alarmRow(id)).toEqual(before);
    expect(await recipientsOf(id)).toEqual([colleague]);
    expect((await changesOf(id)).map((c) => c.action)).toEqual(['create']);
  });

  test("starting a colleague's stopped alarm answers 403", async () => {
    const id = await eriksAlarm(false);
    const res = await as(maria).post(`/${id}/activate`);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      "Only the alarm's owner or an administrator of the tenant may start this personal alarm",
    );
    expect((await alarmRow(id)).active).toBe(false);
  });

  test("silencing a colleague's running alarm answers 403 unless the caller is an operator", async () => {
    const id = await eriksAlarm();
    expect((await as(maria).post(`/${id}/deactivate`)).status).toBe(403);
    expect((await as(stopper).post(`/${id}/deactivate`)).status).toBe(403);
    expect((await alarmRow(id)).active).toBe(true);
    const res = await as(operator).post(`/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
  });
});

describe('every change of an alarm is recorded: who, when, what', () => {
  test("the owner's own changes are recorded, and the owner is not notified of them", async () => {
    clock.set('2026-11-22T08:05:00.000Z');
    const id = await eriksAlarm(false);
    expect(
      (await as(erik).patch(`/${id}`, { dispatchAt: '2026-11-22T10:00:00.000Z', text: 'Boiler room' })).status,
    ).toBe(200);
    expect((await as(erik).post(`/${id}/activate`)).status).toBe(200);
    expect((await as(erik).post(`/${id}/deactivate`)).status).toBe(200);
    const changes = await changesOf(id);
    expect(changes.map((c) => [c.actor_id, c.action])).toEqual([
      [erik.id, 'create'],
      [erik.id, 'update'],
      [erik.id, 'activate'],
      [erik.id, 'deactivate'],
    ]);
    // The creation records the whole alarm as it was made.
    expect(changes[0].changes).toEqual({
      text: { to: 'Home visit at Storgatan 12' },
      dispatchTime: { to: '2026-11-22T09:30:00.000Z' },
      active: { to: false },
      oneMinuteWarning: { to: false },
      location: { to: null },
      recipientUserIds: { to: [colleague] },
      groupIds: { to: [] },
    });
    expect(changes[1].changes).toEqual({
      dispatchTime: { from: '2026-11-22T09:30:00.000Z', to: '2026-11-22T10:00:00.000Z' },
      text: { from: 'Home visit at Storgatan 12', to: 'Boiler room' },
    });
    expect(changes[2].changes).toEqual({ active: { from: false, to: true } });
    expect(changes[1].created_at).toEqual(new Date('2026-11-22T08:05:00.000Z'));
    await ctx.services.jobs.runDueJobs();
    expect([...channels.push.sent, ...channels.sms.sent, ...channels.email.sent]).toEqual([]);
  });

  test("an operator's change is recorded and the owner gets a notice in their language naming who changed what", async () => {
    const id = await eriksAlarm();
    const res = await as(operator).patch(`/${id}`, {
      dispatchAt: '2026-11-22T11:00:00.000Z',
      recipientUserIds: [colleague, operator.id],
    });
    expect(res.status).toBe(200);
    // The notice is a durable job, stored under the name the job handlers know it by (it survives a restart or an
    // upgrade in the queue).
    const [notice] = await ctx.services.db
      .selectFrom('jobs')
      .select(['kind', 'payload'])
      .where('dedupe_key', 'like', 'alarm-change:%')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(notice).toMatchObject({ kind: 'alarm.changed', payload: { alarmId: id } });
    const changes = await changesOf(id);
    expect(changes.at(-1)).toMatchObject({
      actor_id: operator.id,
      action: 'update',
      changes: {
        dispatchTime: { from: '2026-11-22T09:30:00.000Z', to: '2026-11-22T11:00:00.000Z' },
        recipientUserIds: { from: [colleague], to: [colleague, operator.id].sort((a, b) => a - b) },
      },
    });
    await ctx.services.jobs.runDueJobs();
    const notices = [...channels.push.sent, ...channels.sms.sent, ...channels.email.sent];
    expect(notices).toHaveLength(1);
    expect(notices[0].to).toBe(
      (await ctx.services.db.selectFrom('users').select('email').where('id', '=', erik.id).executeTakeFirstOrThrow())
        .email,
    );
    expect(notices[0].subject).toBe('Ditt personlarm har ändrats av Olga Operator');
    expect(notices[0].body).toContain('Olga Operator');
    // The notice is a recorded message of the alarm, sent once: running the jobs again sends nothing more.
    await ctx.services.jobs.runDueJobs();
    expect(channels.email.sent).toHaveLength(1);
    const messages = await ctx.services.db
      .selectFrom('personal_alarm_messages')
      .select(['kind'])
      .where('alarm_id', '=', id)
      .execute();
    expect(messages).toEqual([{ kind: 'changed' }]);
  });

  test('an operator stopping the alarm is recorded and notified as well', async () => {
    const id = await eriksAlarm();
    expect((await as(operator).post(`/${id}/deactivate`)).status).toBe(200);
    expect((await changesOf(id)).at(-1)).toMatchObject({
      actor_id: operator.id,
      action: 'deactivate',
      changes: { active: { from: true, to: false } },
    });
    await ctx.services.jobs.runDueJobs();
    expect(channels.email.sent.map((m) => m.subject)).toEqual(['Ditt personlarm har ändrats av Olga Operator']);
  });

  test("a notice whose push fails for good falls back to SMS, still in the owner's language", async () => {
    const frida = await user('Frida Owner', only('alarms.mayActivate', 'alarms.mayDeactivate'), false, 'fi');
    await ctx.services.db
      .updateTable('users')
      .set({ phone_primary: '+358400000001' })
      .where('id', '=', frida.id)
      .execute();
    await ctx.services.db
      .insertInto('push_tokens')
      .values({ token: `push-frida-${frida.id}`, user_id: frida.id, type: 'android', app_version: '1.0.0' })
      .execute();
    const created = await as(frida).post('', {
      sender: { userId: frida.id, deviceId: 'frida-device' },
      dispatchAt: '2026-11-22T09:30:00.000Z',
      active: false,
      text: 'Night shift',
      oneMinuteWarning: false,
      recipientUserIds: [colleague],
      groupIds: [],
    });
    expect(created.status).toBe(201);
    channels.push.failures = 1_000;
    try {
      expect((await as(operator).patch(`/${created.body.id}`, { text: 'Night shift, ward 4' })).status).toBe(200);
      await ctx.services.jobs.runDueJobs();
      for (let i = 1; i < dispatchPolicy.maxAttempts; i++) {
        clock.advance(dispatchPolicy.maxDelayMs);
        await ctx.services.jobs.runDueJobs();
      }
      expect(channels.sms.sent).toEqual([expect.objectContaining({ to: '+358400000001', language: 'fi' })]);
      const fallback = await ctx.services.db
        .selectFrom('dispatches')
        .select(['channel', 'language'])
        .where('recipient_id', '=', frida.id)
        .where('channel', '=', 'sms')
        .execute();
      expect(fallback).toEqual([{ channel: 'sms', language: 'fi' }]);
    } finally {
      channels.push.failures = 0;
    }
  });

  test("an operator's change records only the fields that differ; one that changes nothing records nothing and tells no one", async () => {
    const id = await eriksAlarm();
    const before = (await changesOf(id)).length;
    const noticesOf = async () =>
      (await ctx.services.db.selectFrom('jobs').select('payload').where('kind', '=', 'alarm.changed').execute()).filter(
        (j) => j.payload.alarmId === id,
      );
    // The same text and time again: 200, and nothing to record.
    const same = { dispatchAt: '2026-11-22T09:30:00.000Z', text: 'Home visit at Storgatan 12' };
    expect((await as(operator).patch(`/${id}`, same)).status).toBe(200);
    expect(await changesOf(id)).toHaveLength(before);
    expect(await noticesOf()).toEqual([]);
    // The same text and another time: only the time is recorded.
    expect((await as(operator).patch(`/${id}`, { ...same, dispatchAt: '2026-11-22T12:00:00.000Z' })).status).toBe(200);
    const changes = await changesOf(id);
    expect(changes).toHaveLength(before + 1);
    expect(changes.at(-1)?.changes).toEqual({
      dispatchTime: { from: '2026-11-22T09:30:00.000Z', to: '2026-11-22T12:00:00.000Z' },
    });
    expect(await noticesOf()).toHaveLength(1);
  });

  test('a change of the groups, the warning and the place is recorded under those names, the place it was included', async () => {
    const id = await eriksAlarm(false);
    const team = await insertGroup(ctx.services, tenant, 'Home care', [colleague]);
    const first = { latitude: 59.3293, longitude: 18.0686 };
    expect((await as(erik).patch(`/${id}`, { groupIds: [team], oneMinuteWarning: true, location: first })).status).toBe(
      200,
    );
    expect((await changesOf(id)).at(-1)?.changes).toEqual({
      groupIds: { from: [], to: [team] },
      oneMinuteWarning: { from: false, to: true },
      location: { from: null, to: first },
    });
    const moved = { latitude: 57.7089, longitude: 11.9746 };
    expect((await as(erik).patch(`/${id}`, { location: moved })).status).toBe(200);
    expect((await changesOf(id)).at(-1)?.changes).toEqual({ location: { from: first, to: moved } });
  });

  test('a change records only what the caller changed, even when a recipient or a group has left the tenant since', async () => {
    const leaver = (await insertUser(ctx.services, { tenants: [tenant] })).id;
    const team = await insertGroup(ctx.services, tenant, 'Night shift', [colleague]);
    const gone = await insertGroup(ctx.services, tenant, 'Disbanded', [colleague]);
    const created = await as(erik).post('', {
      sender: { userId: erik.id, deviceId: `erik-device-${++device}` },
      dispatchAt: '2026-11-22T09:30:00.000Z',
      active: false,
      text: 'Cellar inspection',
      oneMinuteWarning: false,
      recipientUserIds: [colleague, leaver],
      groupIds: [team, gone],
    });
    expect(created.status).toBe(201);
    const id: number = created.body.id;
    await ctx.services.db.deleteFrom('memberships').where('user_id', '=', leaver).execute();
    await ctx.services.db.deleteFrom('group_tenants').where('group_id', '=', gone).execute();
    // Only the groups: the people stay as they were, the one who left included.
    expect((await as(erik).patch(`/${id}`, { groupIds: [team] })).status).toBe(200);
    expect((await changesOf(id)).at(-1)?.changes).toEqual({
      groupIds: { from: [team, gone].sort((a, b) => a - b), to: [team] },
    });
    expect((await recipientsOf(id)).sort((a, b) => a - b)).toEqual([colleague, leaver].sort((a, b) => a - b));
    // Only the people, after the other group left as well: the groups stay as they are, that group included.
    await ctx.services.db.deleteFrom('group_tenants').where('group_id', '=', team).execute();
    expect((await as(erik).patch(`/${id}`, { recipientUserIds: [colleague] })).status).toBe(200);
    expect((await changesOf(id)).at(-1)?.changes).toEqual({
      recipientUserIds: { from: [colleague, leaver].sort((a, b) => a - b), to: [colleague] },
    });
  });

  test('changing a stopped alarm arms no timer and leaves its timer generation as it was', async () => {
    const id = await eriksAlarm(false);
    const before = await alarmRow(id);
    expect(
      (
        await as(erik).patch(`/${id}`, {
          text: 'Attic',
          dispatchAt: '2026-11-22T10:30:00.000Z',
          oneMinuteWarning: true,
        })
      ).status,
    ).toBe(200);
    expect((await alarmRow(id)).version).toBe(before.version);
    const timers = await ctx.services.db
      .selectFrom('jobs')
      .select('kind')
      .where('dedupe_key', 'like', `alarm:${id}:%`)
      .execute();
    expect(timers).toEqual([]);
  });

  test('changing only the text of an armed alarm keeps its timer generation', async () => {
    const id = await eriksAlarm();
    const before = await alarmRow(id);
    expect((await as(erik).patch(`/${id}`, { text: 'Home visit at Storgatan 14' })).status).toBe(200);
    expect((await alarmRow(id)).version).toBe(before.version);
  });

  test('each move of an armed alarm takes its timer to the next generation, never back to one it had', async () => {
    const id = await eriksAlarm();
    const first = (await alarmRow(id)).version;
    expect((await as(erik).patch(`/${id}`, { dispatchAt: '2026-11-22T10:00:00.000Z' })).status).toBe(200);
    expect((await alarmRow(id)).version).toBe(first + 1);
    expect((await as(erik).patch(`/${id}`, { oneMinuteWarning: true })).status).toBe(200);
    expect((await alarmRow(id)).version).toBe(first + 2);
  });

  test('a text holding a lone surrogate is recorded as the alarm holds it, and a written-out escape stays as written', async () => {
    const id = await eriksAlarm(false);
    expect((await as(erik).patch(`/${id}`, { text: 'Stairwell \udfff B \\udfff' })).status).toBe(200);
    const stored = (await alarmRow(id)).text;
    expect(stored).toBe('Stairwell \ufffd B \\udfff');
    expect((await changesOf(id)).at(-1)?.changes).toEqual({
      text: { from: 'Home visit at Storgatan 12', to: stored },
    });
  });

  test('a refused change records nothing and a change that fails validation leaves no audit row or notice', async () => {
    const id = await eriksAlarm();
    const before = (await changesOf(id)).length;
    expect((await as(operator).patch(`/${id}`, { recipientUserIds: [erik.id] })).status).toBe(400);
    expect(await changesOf(id)).toHaveLength(before);
    const jobs = await ctx.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', 'alarm.changed')
      .execute();
    expect(jobs.filter((j) => j.payload.alarmId === id)).toEqual([]);
  });
});
