// Sending quotas. Whoever is in danger is never refused: an alarm that goes off now is accepted and delivered
// whatever came before it (refused requests, earlier alarms, an administrator's "send now" on workers' timers), and
// a quota is spent only by a request that succeeded. What is bounded: alarms created per sender that do not go off
// now (60 an hour), external messages per sender (30 an hour) and, as a higher ceiling, per tenant (300 an hour),
// which never holds back a tenant administrator's own crisis message. Past a quota: 429 TOO_MANY_REQUESTS with
// `unavailableUntil` and `Retry-After`, nothing stored, and for external messages the administrators to ask.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { insertExternalGroup, insertSenderSettings, only } from '../support/crisis-fixtures';
import { movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
let tenant: number;
let colleague: number;
const hour = 3_600_000;
const minute = 60_000;

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenant = await insertTenant(ctx.services);
  colleague = (await insertUser(ctx.services, { tenants: [tenant] })).id;
});
afterAll(() => ctx.close());

interface Sender {
  id: number;
  token: string;
  tenant: number;
}

async function sender(tenantId = tenant, options: { admin?: boolean; name?: string } = {}): Promise<Sender> {
  const user = await insertUser(ctx.services, {
    tenants: [tenantId],
    name: options.name,
    permissions: only('alarms.mayActivate', 'alarms.mayDeactivate', 'cec.maySend'),
  });
  if (options.admin)
    await ctx.services.db
      .updateTable('memberships')
      .set({ is_admin: true })
      .where('user_id', '=', user.id)
      .where('tenant_id', '=', tenantId)
      .execute();
  return { id: user.id, token: (await signIn(ctx.services, user.id)).accessToken, tenant: tenantId };
}

const call = (who: Sender, method: 'post' | 'patch', path: string, body?: object) =>
  request(ctx.app)
    [method](`/core/v1${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(who.tenant))
    .set('authorization', `Bearer ${who.token}`)
    .send(body);

let device = 0;
const alarm = (
  who: Sender,
  dispatchAt: Date,
  active = true,
  more: { deviceId?: string; recipientUserIds?: number[] } = {},
) =>
  call(who, 'post', '/personal-alarms', {
    sender: { userId: who.id, deviceId: more.deviceId ?? `quota-device-${++device}` },
    dispatchAt: dispatchAt.toISOString(),
    active,
    text: 'Alone in the boiler room',
    oneMinuteWarning: false,
    recipientUserIds: more.recipientUserIds ?? [colleague],
    groupIds: [],
  });
const minutesFromNow = (minutes: number) => new Date(clock.now().getTime() + minutes * minute);

const alarmsOf = async (who: Sender) =>
  (await ctx.services.db.selectFrom('personal_alarms').select('id').where('user_id', '=', who.id).execute()).length;

/** The dispatches an alarm made, once its jobs ran. */
const dispatchesOfAlarm = async (alarmId: number) =>
  ctx.services.db
    .selectFrom('dispatches as d')
    .innerJoin('personal_alarm_messages as pm', 'pm.id', 'd.message_id')
    .select(['d.recipient_id', 'd.status', 'pm.kind'])
    .where('d.source', '=', 'alarm')
    .where('pm.alarm_id', '=', alarmId)
    .where('pm.kind', '=', 'alarm')
    .execute();

const quotaKeysOf = async (userId: number) =>
  (
    await ctx.services.db
      .selectFrom('throttles')
      .select('key')
      .where('key', 'like', `quota:%:user:${userId}%`)
      .execute()
  ).map((r) => r.key);

function expectQuotaRefusal(res: request.Response) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('TOO_MANY_REQUESTS');
  const until = new Date(res.body.error.unavailableUntil).getTime();
  expect(until).toBeGreaterThan(clock.now().getTime());
  expect(until).toBeLessThanOrEqual(clock.now().getTime() + hour);
  // Retry-After counts real seconds from the answer (its Date header, whole seconds) to unavailableUntil, rounded
  // up; the test's clock runs ahead of the real one.
  const answeredAt = Date.parse(res.headers.date);
  expect(Math.abs(Number(res.headers['retry-after']) - (until - answeredAt) / 1000)).toBeLessThanOrEqual(3);
}

describe('an alarm that goes off now is never refused', () => {
  test('a person pressing panic 8 times in an hour, after 5 refused requests (400 no valid recipient, 409 device already runs a timer), has every alarm accepted and delivered', async () => {
    const worker = await sender();
    const outsider = (await insertUser(ctx.services, { tenants: [await insertTenant(ctx.services)] })).id;
    const phone = `lone-worker-phone-${++device}`;
    const timer = await alarm(worker, minutesFromNow(30), true, { deviceId: phone });
    expect(timer.status).toBe(201);
    // Five refused requests: no valid recipient (someone of another tenant), and the device already runs a timer.
    for (let i = 0; i < 3; i++) {
      const res = await alarm(worker, minutesFromNow(0), true, { recipientUserIds: [outsider] });
      expect([res.status, res.body.error.code]).toEqual([400, 'PERSONAL_ALARM_NOT_FOUND_RECIPIENTS']);
    }
    for (let i = 0; i < 2; i++) {
      const res = await alarm(worker, minutesFromNow(0), true, { deviceId: phone });
      expect([res.status, res.body.error.code]).toEqual([409, 'PERSONAL_ALARM_CONFLICT']);
    }
    // Panic: first the running timer is sent now, then seven more presses over the hour, each going off at once.
    const panics: number[] = [timer.body.id];
    const sendNow = await call(worker, 'patch', `/personal-alarms/${timer.body.id}`, { dispatchAt: minutesFromNow(0) });
    expect(sendNow.status).toBe(200);
    await ctx.services.jobs.runDueJobs();
    for (let i = 0; i < 7; i++) {
      clock.advance(7 * minute);
      const res = await alarm(worker, minutesFromNow(i % 2 ? 0 : -1), true, { deviceId: phone });
      expect(res.status).toBe(201);
      panics.push(res.body.id);
      await ctx.services.jobs.runDueJobs();
    }
    expect(panics).toHaveLength(8);
    for (const id of panics) {
      const dispatches = await dispatchesOfAlarm(id);
      expect(dispatches.map((d) => [d.recipient_id, d.status])).toEqual([[colleague, 'sent']]);
    }
  });

  test('ten alarms going off now, sent together, are all accepted and armed', async () => {
    const worker = await sender();
    const results = await Promise.all(Array.from({ length: 10 }, () => alarm(worker, minutesFromNow(-5))));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await alarmsOf(worker)).toBe(10);
    // Going off now counts towards nothing.
    expect(await quotaKeysOf(worker.id)).toEqual([]);
  });

  test('an administrator\'s "send now" on six workers\' timers, by moving or starting them, is accepted and spends no quota of anyone', async () => {
    const admin = await sender(tenant, { admin: true });
    const workers = await Promise.all(Array.from({ length: 6 }, () => sender()));
    const timers: number[] = [];
    for (const [i, worker] of workers.entries()) {
      const res = await alarm(worker, i % 2 ? minutesFromNow(120) : minutesFromNow(-10), i % 2 === 1);
      expect(res.status).toBe(201);
      timers.push(res.body.id);
    }
    for (const [i, id] of timers.entries()) {
      const res =
        i % 2
          ? await call(admin, 'patch', `/personal-alarms/${id}`, { dispatchAt: minutesFromNow(0) })
          : await call(admin, 'post', `/personal-alarms/${id}/activate`);
      expect(res.status).toBe(200);
    }
    await ctx.services.jobs.runDueJobs();
    for (const id of timers) expect(await dispatchesOfAlarm(id)).toHaveLength(1);
    expect(await quotaKeysOf(admin.id)).toEqual([]);
    // Each worker's count holds only the timer they created themselves, none of the administrator's starts.
    for (const worker of workers) {
      const [row] = await ctx.services.db
        .selectFrom('throttles')
        .select(['key', 'count'])
        .where('key', 'like', `quota:%:user:${worker.id}`)
        .execute();
      expect(row).toEqual({ key: `quota:alarm:create:user:${worker.id}`, count: 1 });
    }
  });
});

describe('alarm creations per sender (60 an hour by default), spent only by a creation that succeeded', () => {
  test('refused creations (400, 409) spend nothing; the 61st timer for later within the hour answers 429 and is not stored, an alarm going off now still goes', async () => {
    const mallory = await sender();
    const outsider = (await insertUser(ctx.services, { tenants: [await insertTenant(ctx.services)] })).id;
    const busy = `busy-device-${++device}`;
    expect((await alarm(mallory, minutesFromNow(120), true, { deviceId: busy })).status).toBe(201);
    for (let i = 0; i < 20; i++) {
      expect((await alarm(mallory, minutesFromNow(120), true, { recipientUserIds: [outsider] })).status).toBe(400);
      expect((await alarm(mallory, minutesFromNow(120), true, { deviceId: busy })).status).toBe(409);
    }
    for (let i = 0; i < 59; i++) expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(120), false));
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(120), true));
    expect(await alarmsOf(mallory)).toBe(60);
    // An alarm that goes off now is no creation the quota refuses.
    expect((await alarm(mallory, minutesFromNow(0))).status).toBe(201);
    expect((await alarm(mallory, minutesFromNow(-30))).status).toBe(201);
    expect(await alarmsOf(mallory)).toBe(62);
    clock.advance(hour);
    expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
  });

  test('changes and starts never count as creations, whenever the alarm goes off', async () => {
    const mallory = await sender();
    const patch = (id: number, body: object) => call(mallory, 'patch', `/personal-alarms/${id}`, body);
    const armedLater = (await alarm(mallory, minutesFromNow(120))).body.id;
    const parked = (await alarm(mallory, minutesFromNow(120), false)).body.id;
    for (let i = 0; i < 70; i++)
      expect((await patch(armedLater, { text: `Still in the boiler room (${i})` })).status).toBe(200);
    expect((await patch(parked, { dispatchAt: minutesFromNow(-1) })).status).toBe(200);
    expect((await call(mallory, 'post', `/personal-alarms/${parked}/activate`)).status).toBe(200);
    expect((await patch(armedLater, { dispatchAt: minutesFromNow(0) })).status).toBe(200);
    expect(await quotaKeysOf(mallory.id)).toEqual([`quota:alarm:create:user:${mallory.id}`]);
    const row = await ctx.services.db
      .selectFrom('throttles')
      .select('count')
      .where('key', '=', `quota:alarm:create:user:${mallory.id}`)
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(2);
  });
});

describe('external messages: per sender first (30 an hour), the tenant ceiling last (300 an hour)', () => {
  async function crisisTenant(members = 1) {
    const own = await insertTenant(ctx.services);
    await insertSenderSettings(ctx.services, own);
    const contacts = Array.from({ length: members }, (_, i) => ({
      name: `Parent ${i}`,
      phone: `+4670${String(1_000_000 + i).padStart(7, '0')}`,
    }));
    const group = (await insertExternalGroup(ctx.services, own, 'Parents', contacts)).id;
    return { own, group };
  }
  const send = (who: Sender, groupId: number, text = 'Water is off') =>
    call(who, 'post', '/external-communications/messages', {
      externalCommunicationGroupIds: [groupId],
      text,
      channel: { isEmail: false, isSms: true },
    });
  const storedOf = async (tenantId: number) =>
    (await ctx.services.db.selectFrom('cec_messages').select('id').where('tenant_id', '=', tenantId).execute()).length;

  test("one sender spending their quota with one-line messages to a one-person group leaves the administrator's crisis message to a large group, and its follow-ups, accepted", async () => {
    const { own, group: onePerson } = await crisisTenant(1);
    const large = (await insertExternalGroup(ctx.services, own, 'Everyone')).id;
    const everyone = await ctx.services.db
      .insertInto('cec_contacts')
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          tenant_id: own,
          name: `Person ${i}`,
          title: null,
          email: null,
          phone: `+4673${String(i).padStart(7, '0')}`,
        })),
      )
      .returning('id')
      .execute();
    await ctx.services.db
      .insertInto('cec_group_members')
      .values(everyone.map((c) => ({ group_id: large, contact_id: c.id, tenant_id: own })))
      .execute();
    const mallory = await sender(own);
    const admin = await sender(own, { admin: true, name: 'Ada Admin' });
    // Mallory sends until refused.
    let sent = 0;
    let refusal: request.Response | undefined;
    while (sent < 200) {
      const res = await send(mallory, onePerson, '.');
      if (res.status !== 201) {
        refusal = res;
        break;
      }
      sent++;
    }
    expect(sent).toBe(30);
    expectQuotaRefusal(refusal!);
    const crisis = await send(admin, large, 'Evacuate the building now by the north exit');
    expect(crisis.status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await send(admin, large, `Update ${i}: everyone is out`)).status).toBe(201);
    expect(await storedOf(own)).toBe(36);
    await ctx.services.jobs.runDueJobs();
    const reached = await ctx.services.db
      .selectFrom('dispatches')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('source', '=', 'cec')
      .where('message_id', '=', crisis.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(reached.n)).toBe(300);
  });

  test('a refused message names the tenant administrators to ask, and refused requests (400, 403) spend nothing', async () => {
    const { own, group } = await crisisTenant(1);
    const other = await crisisTenant(1);
    await sender(own, { admin: true, name: 'Ada Admin' });
    await sender(own, { admin: true, name: 'Bo Boss' });
    const mallory = await sender(own);
    for (let i = 0; i < 10; i++) {
      const none = await call(mallory, 'post', '/external-communications/messages', {
        externalCommunicationGroupIds: [group],
        text: 'x',
        channel: { isEmail: false, isSms: false },
      });
      expect(none.status).toBe(400);
      expect((await send(mallory, other.group)).status).toBe(403);
    }
    for (let i = 0; i < 30; i++) expect((await send(mallory, group)).status).toBe(201);
    const refused = await send(mallory, group);
    expectQuotaRefusal(refused);
    expect(refused.body.error.administrators.map((a: { name: string }) => a.name)).toEqual(['Ada Admin', 'Bo Boss']);
    expect(refused.body.error.message).toMatch(/ask an administrator of the organisation \(Ada Admin <.+>, Bo Boss/);
    expect(await storedOf(own)).toBe(30);
  });
});

describe('the tenant ceiling (small limits)', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await createTestContext({
      now: clock.now,
      env: { EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR: '3', EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR: '5' },
    });
  });
  afterAll(() => small.close());

  test("many senders together reach the tenant's ceiling; its administrator's own messages still go, another tenant is not held back, and the next hour opens again", async () => {
    const s = small.services;
    const own = await insertTenant(s);
    await insertSenderSettings(s, own);
    const group = (await insertExternalGroup(s, own, 'Staff', [{ name: 'Eva', phone: '+46700000002' }])).id;
    const member = async (tenantId: number, admin = false) => {
      const user = await insertUser(s, { tenants: [tenantId], permissions: only('cec.maySend') });
      if (admin) await s.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', user.id).execute();
      return { id: user.id, token: (await signIn(s, user.id)).accessToken, tenant: tenantId };
    };
    const post = (who: Sender, groupId = group) =>
      request(small.app)
        .post('/core/v1/external-communications/messages')
        .set(v1)
        .set('cosafe-tenant-id', String(who.tenant))
        .set('authorization', `Bearer ${who.token}`)
        .send({
          externalCommunicationGroupIds: [groupId],
          text: 'Water is off',
          channel: { isEmail: false, isSms: true },
        });
    const [first, second, third] = [await member(own), await member(own), await member(own)];
    const admin = await member(own, true);
    for (let i = 0; i < 3; i++) expect((await post(first)).status).toBe(201);
    expect((await post(first)).status).toBe(429);
    expect((await post(second)).status).toBe(201);
    expect((await post(second)).status).toBe(201);
    // Five sent: the ceiling refuses the third sender, with the administrator to ask.
    const refused = await post(third);
    expectQuotaRefusal(refused);
    expect(refused.body.error.message).toMatch(/^This organisation has sent too many external messages this hour/);
    expect(refused.body.error.administrators).toHaveLength(1);
    // The administrator's own messages go, past the ceiling and past a sender's quota (3 here): a crisis message
    // from an administrator is never refused.
    for (let i = 0; i < 5; i++) expect((await post(admin)).status).toBe(201);

    const other = await insertTenant(s);
    await insertSenderSettings(s, other);
    const otherGroup = (await insertExternalGroup(s, other, 'Staff', [{ name: 'Eva', phone: '+46700000003' }])).id;
    expect((await post(await member(other), otherGroup)).status).toBe(201);

    clock.advance(hour);
    expect((await post(third)).status).toBe(201);
  });
});
