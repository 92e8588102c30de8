// When personal alarms fire: at dispatchAt and not before, once, never after being stopped, after a restart, and
// to whom (push to each device, SMS without a device, email without a phone; a push that fails falls back).
import request from 'supertest';
import { buildServices } from '../../src/bootstrap';
import { dispatchPolicy } from '../../src/notify/deliveries';
import { createLogger } from '../../src/logger';
import type { Services } from '../../src/services';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { fakeClock, insertGroup, only, scriptChannels, type ScriptedChannel } from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
const T = new Date('2026-11-22T09:00:00.000Z');
const at = (offsetMs: number) => new Date(T.getTime() + offsetMs);
let ctx: TestContext;
let tenant: number;
let otherTenant: number;
let owner: { id: number; token: string };
let withDevices: number;
let withPhone: number;
let emailOnly: number;
let inGroupToo: number;
let team: number;
let channels: Record<'email' | 'sms' | 'voice' | 'push', ScriptedChannel>;

const api = (method: 'post' | 'patch', path: string, body?: object) =>
  request(ctx.app)
    [method](`/core/v1/personal-alarms${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${owner.token}`)
    .send(body);
let device = 0;
const arm = async (overrides: Record<string, unknown> = {}) => {
  const res = await api('post', '', {
    sender: { userId: owner.id, deviceId: `timer-device-${++device}` },
    dispatchAt: T.toISOString(),
    active: true,
    text: 'Alone in the boiler room',
    oneMinuteWarning: false,
    recipientUserIds: [withDevices, withPhone, emailOnly, inGroupToo],
    groupIds: [team],
    ...overrides,
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const sent = () => [...channels.push.sent, ...channels.sms.sent, ...channels.email.sent];
const resetChannels = (services: Services = ctx.services) => (channels = scriptChannels(services));
const runAt = async (when: Date, services: Services = ctx.services) => {
  clock.set(when);
  return services.jobs.runDueJobs();
};

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
  otherTenant = await insertTenant(ctx.services);
  const o = await insertUser(ctx.services, {
    name: 'Olle Owner',
    phone: '+46700000100',
    tenants: [tenant],
    permissions: only('alarms.mayActivate', 'alarms.mayDeactivate'),
  });
  owner = { id: o.id, token: (await signIn(ctx.services, o.id)).accessToken };
  withDevices = (await insertUser(ctx.services, { phone: '+46700000101', tenants: [tenant] })).id;
  withPhone = (await insertUser(ctx.services, { phone: '+46700000102', tenants: [tenant] })).id;
  emailOnly = (await insertUser(ctx.services, { email: 'email-only@example.test', tenants: [tenant] })).id;
  inGroupToo = (await insertUser(ctx.services, { phone: '+46700000103', tenants: [tenant] })).id;
  const groupOnly = (await insertUser(ctx.services, { phone: '+46700000104', tenants: [tenant] })).id;
  team = await insertGroup(ctx.services, tenant, 'Team', [inGroupToo, groupOnly, owner.id]);
  for (const token of ['ios-token-1', 'android-token-2']) {
    await ctx.services.db
      .insertInto('push_tokens')
      .values({ token, user_id: withDevices, type: token.startsWith('ios') ? 'ios' : 'android', app_version: '5.0.0' })
      .execute();
  }
});
afterAll(() => ctx.close());
beforeEach(async () => {
  clock.set('2026-11-22T08:00:00.000Z');
  await ctx.services.db.updateTable('personal_alarms').set({ active: false }).execute();
  await ctx.services.db.deleteFrom('jobs').execute();
  // The clock goes back to 08:00 for each test, which real time never does: the repeat windows the last test's
  // alarms opened (personal-alarms.repeats.ts) go with it.
  await ctx.services.db.deleteFrom('personal_alarm_repeat_windows').execute();
  resetChannels();
});

describe('an armed alarm', () => {
  test('fires at dispatchAt, not a moment before, to every recipient once with its text and location', async () => {
    const id = await arm({ location: { latitude: 59.3293, longitude: 18.0686 } });
    expect(await runAt(at(-1))).toBe(0);
    expect(sent()).toEqual([]);
    await runAt(T);
    expect(channels.push.sent.map((m) => m.to).sort()).toEqual(['android-token-2', 'ios-token-1']);
    expect(channels.sms.sent.map((m) => m.to).sort()).toEqual(['+46700000102', '+46700000103', '+46700000104']);
    expect(channels.email.sent.map((m) => m.to)).toEqual(['email-only@example.test']);
    // The owner is in the team but is the one not answering: no alarm to them.
    expect(sent().some((m) => m.to === '+46700000100')).toBe(false);
    expect(channels.sms.sent[0].body).toContain('Personal alarm from Olle Owner: Alone in the boiler room');
    expect(channels.sms.sent[0].body).toContain('59.3293, 18.0686');
    const alarm = await ctx.services.db
      .selectFrom('personal_alarms')
      .select(['active', 'message_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(alarm).toEqual({ active: false, message_id: expect.any(Number) });

    // Never twice: later runs, and a second instance, send nothing more.
    await runAt(at(3_600_000));
    const other = await buildServices(ctx.config, {
      database: ctx.database,
      now: clock.now,
      logger: createLogger('silent'),
    });
    const otherChannels = scriptChannels(other);
    await other.jobs.runDueJobs();
    expect(sent()).toHaveLength(6);
    expect([...otherChannels.push.sent, ...otherChannels.sms.sent, ...otherChannels.email.sent]).toEqual([]);
  });

  test('deactivated before dispatchAt, sends nothing, not even its warning', async () => {
    const id = await arm({ oneMinuteWarning: true });
    clock.set(at(-90_000));
    expect((await api('post', `/${id}/deactivate`)).status).toBe(200);
    await runAt(at(-60_000));
    await runAt(T);
    await runAt(at(86_400_000));
    expect(sent()).toEqual([]);
  });

  test('deactivated and activated again fires once, at its time', async () => {
    const id = await arm();
    await api('post', `/${id}/deactivate`);
    await api('post', `/${id}/activate`);
    await runAt(T);
    await runAt(at(60_000));
    expect(sent()).toHaveLength(6);
  });

  test('extended, fires at the new time and not at the old one', async () => {
    const id = await arm();
    expect((await api('patch', `/${id}`, { dispatchAt: at(30 * 60_000).toISOString() })).status).toBe(200);
    await runAt(T);
    await runAt(at(30 * 60_000 - 1));
    expect(sent()).toEqual([]);
    await runAt(at(30 * 60_000));
    expect(sent()).toHaveLength(6);
  });

  test('moved earlier, fires at the new time', async () => {
    const id = await arm();
    await api('patch', `/${id}`, { dispatchAt: at(-30 * 60_000).toISOString() });
    await runAt(at(-30 * 60_000));
    expect(sent()).toHaveLength(6);
    await runAt(T);
    expect(sent()).toHaveLength(6);
  });

  test('with oneMinuteWarning, warns its owner a minute before, then fires', async () => {
    await arm({ oneMinuteWarning: true });
    await runAt(at(-60_001));
    expect(sent()).toEqual([]);
    await runAt(at(-60_000));
    expect(channels.sms.sent).toEqual([
      expect.objectContaining({
        to: '+46700000100',
        body: 'Your personal alarm goes off in 60 seconds unless you stop or extend it: Alone in the boiler room',
      }),
    ]);
    await runAt(at(-1));
    expect(sent()).toHaveLength(1);
    await runAt(T);
    expect(sent()).toHaveLength(7);
    expect(channels.sms.sent.filter((m) => m.to === '+46700000100')).toHaveLength(1);
  });

  test('armed with less than a minute left, warns at once', async () => {
    clock.set(at(-20_000));
    await arm({ oneMinuteWarning: true });
    await ctx.services.jobs.runDueJobs();
    expect(channels.sms.sent.map((m) => m.body)).toEqual([
      'Your personal alarm goes off in 20 seconds unless you stop or extend it: Alone in the boiler room',
    ]);
  });

  test('that fell due while no instance ran fires as soon as one starts, without a warning that comes too late', async () => {
    await arm({ oneMinuteWarning: true });
    clock.set(at(5 * 60_000));
    const restarted = await buildServices(ctx.config, {
      database: ctx.database,
      now: clock.now,
      logger: createLogger('silent'),
    });
    const restartedChannels = scriptChannels(restarted);
    await restarted.jobs.runDueJobs();
    const delivered = [...restartedChannels.push.sent, ...restartedChannels.sms.sent, ...restartedChannels.email.sent];
    expect(delivered).toHaveLength(6);
    expect(delivered.some((m) => m.to === '+46700000100')).toBe(false);
    expect(sent()).toEqual([]);
  });

  test('does not reach someone who left the tenant in the meantime', async () => {
    await arm();
    await ctx.services.db
      .deleteFrom('memberships')
      .where('user_id', '=', emailOnly)
      .where('tenant_id', '=', tenant)
      .execute();
    await runAt(T);
    expect(channels.email.sent).toEqual([]);
    expect(sent()).toHaveLength(5);
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: tenant, user_id: emailOnly, permissions: JSON.stringify(only()) })
      .execute();
  });

  test('a push that fails for good on every device falls back to one SMS', async () => {
    channels.push.failures = 1_000;
    await arm({ recipientUserIds: [withDevices], groupIds: [] });
    await runAt(T);
    for (let i = 1; i < dispatchPolicy.maxAttempts; i++)
      await runAt(new Date(clock.now().getTime() + dispatchPolicy.maxDelayMs));
    expect(channels.push.calls).toBe(2 * dispatchPolicy.maxAttempts);
    expect(channels.sms.sent.map((m) => m.to)).toEqual(['+46700000101']);
  });
});

describe('tenant isolation', () => {
  test('an alarm of another tenant cannot be stopped or moved from this tenant, and still fires', async () => {
    const id = await arm();
    const intruder = await insertUser(ctx.services, {
      tenants: [otherTenant],
      permissions: only('alarms.mayActivate', 'alarms.mayDeactivate'),
    });
    const token = (await signIn(ctx.services, intruder.id)).accessToken;
    const call = (path: string, method: 'post' | 'patch', body?: object) =>
      request(ctx.app)
        [method](`/core/v1/personal-alarms/${id}${path}`)
        .set(v1)
        .set('cosafe-tenant-id', String(otherTenant))
        .set('authorization', `Bearer ${token}`)
        .send(body);
    expect((await call('/deactivate', 'post')).status).toBe(404);
    expect((await call('', 'patch', { dispatchAt: at(3_600_000).toISOString() })).status).toBe(404);
    await runAt(T);
    expect(sent()).toHaveLength(6);
  });
});
