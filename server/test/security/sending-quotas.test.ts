// Attack: any member fires unlimited alarms at once. Ten alarms with dispatchAt in the past (the contract dispatches
// them at once) sent 50 messages, SMS included, to colleagues and a partner tenant's members; a sender could also
// create alarms without end, and a tenant's senders could send external messages without end. Quotas, with the
// shipped defaults: immediate alarms per sender, alarm creations per sender, external messages per tenant, each
// refused past its limit with 429 TOO_MANY_REQUESTS, `unavailableUntil` and `Retry-After`, and nothing stored.
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

async function sender(tenantId = tenant): Promise<Sender> {
  const user = await insertUser(ctx.services, {
    tenants: [tenantId],
    permissions: only('alarms.mayActivate', 'alarms.mayDeactivate', 'cec.maySend'),
  });
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
const alarm = (who: Sender, dispatchAt: Date, active = true) =>
  call(who, 'post', '/personal-alarms', {
    sender: { userId: who.id, deviceId: `quota-device-${++device}` },
    dispatchAt: dispatchAt.toISOString(),
    active,
    text: 'Alone in the boiler room',
    oneMinuteWarning: false,
    recipientUserIds: [colleague],
    groupIds: [],
  });
const minutesFromNow = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);

const alarmsOf = async (who: Sender) =>
  (await ctx.services.db.selectFrom('personal_alarms').select('id').where('user_id', '=', who.id).execute()).length;

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

describe('alarms that dispatch at once, per sender (5 an hour by default)', () => {
  test('ten alarms with dispatchAt in the past, sent together: five are armed, five answer 429', async () => {
    const mallory = await sender();
    const results = await Promise.all(Array.from({ length: 10 }, () => alarm(mallory, minutesFromNow(-5))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(5);
    refused.forEach(expectQuotaRefusal);
    expect(await alarmsOf(mallory)).toBe(5);
    // Another sender of the same tenant is not held back by it.
    expect((await alarm(await sender(), minutesFromNow(-5))).status).toBe(201);
    // A timer for later is no immediate alarm.
    expect((await alarm(mallory, minutesFromNow(60))).status).toBe(201);
  });

  test('due within the minute, or moved or activated to be due now, counts the same', async () => {
    const mallory = await sender();
    const soon = await alarm(mallory, minutesFromNow(0.5));
    expect(soon.status).toBe(201);
    const later = await alarm(mallory, minutesFromNow(60));
    const parked = await alarm(mallory, minutesFromNow(-10), false);
    expect([later.status, parked.status]).toEqual([201, 201]);
    expect(
      (await call(mallory, 'patch', `/personal-alarms/${later.body.id}`, { dispatchAt: minutesFromNow(-1) })).status,
    ).toBe(200);
    expect((await call(mallory, 'post', `/personal-alarms/${parked.body.id}/activate`)).status).toBe(200);
    expect((await alarm(mallory, minutesFromNow(-1))).status).toBe(201);
    expect((await alarm(mallory, minutesFromNow(-1))).status).toBe(201);
    // Five used: the sixth way in is refused and changes nothing.
    const moved = await alarm(mallory, minutesFromNow(60));
    const refusedMove = await call(mallory, 'patch', `/personal-alarms/${moved.body.id}`, {
      dispatchAt: minutesFromNow(0),
    });
    expectQuotaRefusal(refusedMove);
    const row = await ctx.services.db
      .selectFrom('personal_alarms')
      .select('dispatch_at')
      .where('id', '=', moved.body.id)
      .executeTakeFirstOrThrow();
    expect(row.dispatch_at.getTime()).toBeGreaterThan(minutesFromNow(59).getTime());
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(-1)));

    clock.advance(hour);
    expect((await alarm(mallory, minutesFromNow(-1))).status).toBe(201);
  });
});

describe('what counts, and as what', () => {
  test('only what makes an alarm go off now counts as going off at once, and a change or a start never counts as a creation', async () => {
    const mallory = await sender();
    const patch = (id: number, body: object) => call(mallory, 'patch', `/personal-alarms/${id}`, body);
    const armedLater = (await alarm(mallory, minutesFromNow(120))).body.id;
    const parkedDue = (await alarm(mallory, minutesFromNow(-10), false)).body.id;
    const toMove = (await alarm(mallory, minutesFromNow(120))).body.id;
    const toStart = (await alarm(mallory, minutesFromNow(-10), false)).body.id;
    const dispatched = (await alarm(mallory, minutesFromNow(-1))).body.id; // the first at once
    await ctx.services.jobs.runDueJobs();
    for (let i = 0; i < 53; i++) expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
    // 58 creations so far. More than the five at once: changes of an armed alarm that do not make it go off, and
    // alarms not armed made due now, none of which goes off.
    for (let i = 0; i < 6; i++) {
      expect((await patch(armedLater, { text: `Still in the boiler room (${i})` })).status).toBe(200);
      expect((await patch(parkedDue, { dispatchAt: minutesFromNow(-1 - i) })).status).toBe(200);
    }
    // Starting an alarm that has gone off already is refused, and spends nothing.
    for (let i = 0; i < 5; i++)
      expect((await call(mallory, 'post', `/personal-alarms/${dispatched}/activate`)).status).toBe(409);
    // The second and third at once; neither is a creation.
    expect((await patch(toMove, { dispatchAt: minutesFromNow(0) })).status).toBe(200);
    expect((await call(mallory, 'post', `/personal-alarms/${toStart}/activate`)).status).toBe(200);
    expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
    expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(120), false));
    // Two of the five at once are left.
    await ctx.services.db.deleteFrom('throttles').where('key', '=', `quota:alarm:create:user:${mallory.id}`).execute();
    expect((await alarm(mallory, minutesFromNow(-1))).status).toBe(201);
    expect((await alarm(mallory, minutesFromNow(-1))).status).toBe(201);
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(-1)));
  });
});

describe('alarm creations per sender (60 an hour by default)', () => {
  test('the 61st alarm within the hour answers 429 and is not stored', async () => {
    const mallory = await sender();
    for (let i = 0; i < 60; i++) expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
    expectQuotaRefusal(await alarm(mallory, minutesFromNow(120), false));
    expect(await alarmsOf(mallory)).toBe(60);
    clock.advance(hour);
    expect((await alarm(mallory, minutesFromNow(120), false)).status).toBe(201);
  });
});

describe('external messages per tenant (60 an hour by default)', () => {
  test("the tenant's 61st message within the hour answers 429 to any of its senders, and nothing is sent", async () => {
    const own = await insertTenant(ctx.services);
    await insertSenderSettings(ctx.services, own);
    const group = (await insertExternalGroup(ctx.services, own, 'Parents', [{ name: 'Erik', phone: '+46700000001' }]))
      .id;
    const [first, second] = [await sender(own), await sender(own)];
    const send = (who: Sender, groupId = group) =>
      call(who, 'post', '/external-communications/messages', {
        externalCommunicationGroupIds: [groupId],
        text: 'Water is off',
        channel: { isEmail: false, isSms: true },
      });
    for (let i = 0; i < 60; i++) expect((await send(i % 2 ? first : second)).status).toBe(201);
    expectQuotaRefusal(await send(first));
    expectQuotaRefusal(await send(second));
    const stored = await ctx.services.db.selectFrom('cec_messages').select('id').where('tenant_id', '=', own).execute();
    expect(stored).toHaveLength(60);

    // Another tenant is not held back by it.
    const other = await insertTenant(ctx.services);
    await insertSenderSettings(ctx.services, other);
    const otherGroup = (
      await insertExternalGroup(ctx.services, other, 'Staff', [{ name: 'Eva', phone: '+46700000002' }])
    ).id;
    expect((await send(await sender(other), otherGroup)).status).toBe(201);

    clock.advance(hour);
    expect((await send(first)).status).toBe(201);
  });
});
