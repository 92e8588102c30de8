// A tenant's administrators are told of unusual volume: whoever is in danger is never refused, so a flood of alarms
// or external messages goes out, and the people who can act on it hear of it. An hour whose alarms raised or
// messages sent reach max(the floor, 5 × the tenant's usual count an hour over the week before) makes one notice:
// a recorded row and an email to each active administrator in their language; at most one per tenant, kind and
// hour, also when several instances count at once. Floors here are small: 10 alarms and 3 messages an hour.
import request from 'supertest';
import { buildServices } from '../../src/bootstrap';
import { createLogger } from '../../src/logger';
import { countVolume, flushVolume, recordVolume } from '../../src/notify/unusual-volume';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import {
  fakeClock,
  insertExternalGroup,
  insertSenderSettings,
  only,
  scriptChannels,
  type ScriptedChannel,
} from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
const hour = 3_600_000;
let ctx: TestContext;
let channels: Record<'email' | 'sms' | 'voice' | 'push', ScriptedChannel>;

beforeAll(async () => {
  ctx = await createTestContext({
    now: clock.now,
    env: { UNUSUAL_ALARMS_PER_HOUR: '10', UNUSUAL_MESSAGES_PER_HOUR: '3', UNUSUAL_VOLUME_FACTOR: '5' },
  });
});
afterAll(() => ctx.close());
beforeEach(() => {
  clock.advance(24 * hour);
  channels = scriptChannels(ctx.services);
});

interface Member {
  id: number;
  token: string;
  tenant: number;
}

async function member(tenant: number, options: { admin?: boolean; language?: string; email?: string } = {}) {
  const user = await insertUser(ctx.services, {
    tenants: [tenant],
    email: options.email,
    permissions: only('alarms.mayActivate', 'alarms.mayDeactivate', 'cec.maySend'),
  });
  if (options.admin)
    await ctx.services.db
      .updateTable('memberships')
      .set({ is_admin: true })
      .where('user_id', '=', user.id)
      .where('tenant_id', '=', tenant)
      .execute();
  if (options.language)
    await ctx.services.db
      .insertInto('user_settings')
      .values({ user_id: user.id, preferred_language: options.language })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ preferred_language: options.language }))
      .execute();
  return { id: user.id, token: (await signIn(ctx.services, user.id)).accessToken, tenant } satisfies Member;
}

const post = (who: Member, path: string, body: object) =>
  request(ctx.app)
    .post(`/core/v1${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(who.tenant))
    .set('authorization', `Bearer ${who.token}`)
    .send(body);

let device = 0;
async function raiseAlarm(who: Member, recipient: number) {
  const res = await post(who, '/personal-alarms', {
    sender: { userId: who.id, deviceId: `volume-device-${++device}` },
    dispatchAt: clock.now().toISOString(),
    active: true,
    text: 'Help',
    oneMinuteWarning: false,
    recipientUserIds: [recipient],
    groupIds: [],
  });
  expect(res.status).toBe(201);
  await ctx.services.jobs.runDueJobs();
  // Counts gather in the process for up to a second: written now, as the timer would.
  await flushVolume(ctx.services);
}

const noticesOf = (tenant: number) =>
  ctx.services.db
    .selectFrom('tenant_volume_notices')
    .select(['kind', 'count', 'usual', 'administrators'])
    .where('tenant_id', '=', tenant)
    .orderBy('id')
    .execute();
const emailsTo = (address: string) => channels.email.sent.filter((m) => m.to === address);

describe('unusual volume of alarms', () => {
  test('a script raising 25 alarms in an hour: every alarm goes off, and each tenant administrator is told once, by email in their language, with a recorded notice', async () => {
    const tenant = await insertTenant(ctx.services);
    await member(tenant, { admin: true, email: 'admin-en@example.test' });
    await member(tenant, { admin: true, email: 'admin-sv@example.test', language: 'sv' });
    const worker = await member(tenant);
    const colleague = (await insertUser(ctx.services, { phone: '+46700000301', tenants: [tenant] })).id;
    for (let i = 0; i < 9; i++) await raiseAlarm(worker, colleague);
    expect(channels.email.sent).toEqual([]);
    for (let i = 9; i < 25; i++) await raiseAlarm(worker, colleague);
    await ctx.services.jobs.runDueJobs();
    const english = emailsTo('admin-en@example.test');
    expect(english).toHaveLength(1);
    expect(english[0].subject).toContain('Unusual volume');
    expect(english[0].body).toContain('10 personal alarms were raised in the hour');
    expect(emailsTo('admin-sv@example.test')).toHaveLength(1);
    expect(emailsTo('admin-sv@example.test')[0].body).toContain('10 personliga larm');
    // Nobody else is told, and the notice is recorded once for the hour.
    expect(channels.email.sent).toHaveLength(2);
    expect(await noticesOf(tenant)).toEqual([{ kind: 'alarms', count: 10, usual: 0, administrators: 2 }]);
    // Every alarm went off: each delivered or counted in a repeat summary.
    const fired = await ctx.services.db
      .selectFrom('personal_alarms')
      .select('id')
      .where('user_id', '=', worker.id)
      .where('active', '=', false)
      .where('message_id', 'is not', null)
      .execute();
    expect(fired).toHaveLength(25);

    // The next hour is a window of its own: a flood in it tells them again, once.
    clock.advance(hour);
    for (let i = 0; i < 12; i++) await raiseAlarm(worker, colleague);
    await ctx.services.jobs.runDueJobs();
    expect(emailsTo('admin-en@example.test')).toHaveLength(2);
    expect((await noticesOf(tenant)).map((n) => n.kind)).toEqual(['alarms', 'alarms']);
  });

  test("a tenant that usually raises many alarms is not told at its usual rate, only well above it (5 × its week's hourly mean)", async () => {
    const tenant = await insertTenant(ctx.services);
    await member(tenant, { admin: true, email: `busy-admin-${tenant}@example.test` });
    const thisHour = new Date(Math.floor(clock.now().getTime() / hour) * hour);
    // A week of 20 alarms an hour.
    await ctx.services.db
      .insertInto('tenant_volume')
      .values(
        Array.from({ length: 168 }, (_, i) => ({
          tenant_id: tenant,
          kind: 'alarms',
          hour: new Date(thisHour.getTime() - (i + 1) * hour),
          count: 20,
        })),
      )
      .execute();
    countVolume(ctx.services, 'alarms', new Map([[tenant, 99]]), clock.now());
    await flushVolume(ctx.services);
    await ctx.services.jobs.runDueJobs();
    expect(await noticesOf(tenant)).toEqual([]);
    countVolume(ctx.services, 'alarms', new Map([[tenant, 1]]), clock.now());
    await flushVolume(ctx.services);
    await ctx.services.jobs.runDueJobs();
    expect(await noticesOf(tenant)).toEqual([{ kind: 'alarms', count: 100, usual: 20, administrators: 1 }]);
    expect(emailsTo(`busy-admin-${tenant}@example.test`)[0].body).toContain('the usual is 20 an hour');
  });

  test('two instances counting the same flood at once record one notice and send one email to each administrator', async () => {
    const tenant = await insertTenant(ctx.services);
    await member(tenant, { admin: true, email: `racing-admin-${tenant}@example.test` });
    const second = await buildServices(ctx.config, {
      database: ctx.database,
      now: clock.now,
      logger: createLogger('silent'),
    });
    const secondChannels = scriptChannels(second);
    try {
      const thisHour = new Date(Math.floor(clock.now().getTime() / hour) * hour);
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          recordVolume(
            i % 2 ? second : ctx.services,
            [{ tenantId: tenant, kind: 'alarms', hour: thisHour, count: 5 }],
            clock.now(),
          ),
        ),
      );
      await Promise.all([ctx.services.jobs.runDueJobs(), second.jobs.runDueJobs()]);
      expect(await noticesOf(tenant)).toHaveLength(1);
      const told = [...emailsTo(`racing-admin-${tenant}@example.test`), ...secondChannels.email.sent];
      expect(told.map((m) => m.to)).toEqual([`racing-admin-${tenant}@example.test`]);
    } finally {
      second.notifier.close();
      await second.outbound.close();
    }
  });
});

describe('unusual volume of external messages', () => {
  test('a sender flooding external messages: the administrators are told once in the hour, and the messages still go', async () => {
    const tenant = await insertTenant(ctx.services);
    await insertSenderSettings(ctx.services, tenant);
    const group = (
      await insertExternalGroup(ctx.services, tenant, 'Parents', [{ name: 'Erik', phone: '+46700000001' }])
    ).id;
    await member(tenant, { admin: true, email: `cec-admin-${tenant}@example.test` });
    const sender = await member(tenant);
    for (let i = 0; i < 6; i++) {
      const res = await post(sender, '/external-communications/messages', {
        externalCommunicationGroupIds: [group],
        text: `Water is off ${i}`,
        channel: { isEmail: false, isSms: true },
      });
      expect(res.status).toBe(201);
    }
    await flushVolume(ctx.services);
    await ctx.services.jobs.runDueJobs();
    const told = emailsTo(`cec-admin-${tenant}@example.test`);
    expect(told).toHaveLength(1);
    // The six were counted together (counts gather for up to a second): one notice, at six.
    expect(told[0].body).toContain('6 external messages were sent in the hour');
    expect(await noticesOf(tenant)).toEqual([{ kind: 'messages', count: 6, usual: 0, administrators: 1 }]);
    expect(channels.sms.sent.filter((m) => m.to === '+46700000001')).toHaveLength(6);
  });
});
