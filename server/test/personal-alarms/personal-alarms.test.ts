// Personal alarms (lone-worker timers) through HTTP: every answer of every operation, permissions and tenant
// isolation. When they fire is in alarm-timer.test.ts.
import type { KyselyPlugin, TableNode } from 'kysely';
import request from 'supertest';
import { updatePersonalAlarm } from '../../src/modules/personal-alarms/personal-alarms.service';
import { buildPermissions } from '../../src/modules/users/permission-flags';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { fakeClock, insertGroup, only } from '../support/crisis-fixtures';

const clock = fakeClock('2026-11-22T08:00:00.000Z');
let ctx: TestContext;
let tenantA: number;
let tenantB: number;
let owner: { id: number; token: string };
let stopper: { id: number; token: string };
let starter: { id: number; token: string };
let noAlarms: { id: number; token: string };
let ownerB: { id: number; token: string };
let colleague: number;
let outsider: number;
let team: number;
let emptyGroup: number;
let groupOfB: number;

const base = '/core/v1/personal-alarms';
const as = (who: { token: string }, tenant = tenantA) => {
  const set = (r: request.Test) =>
    r.set(v1).set('cosafe-tenant-id', String(tenant)).set('authorization', `Bearer ${who.token}`);
  return {
    get: (path = '') => set(request(ctx.app).get(`${base}${path}`)),
    post: (path: string, body?: object) => set(request(ctx.app).post(`${base}${path}`)).send(body),
    patch: (path: string, body: object) => set(request(ctx.app).patch(`${base}${path}`)).send(body),
  };
};
let device = 0;
const alarm = (overrides: Record<string, unknown> = {}) => ({
  sender: { userId: owner.id, deviceId: `device-${++device}` },
  dispatchAt: '2026-11-22T09:30:00.000Z',
  active: true,
  text: 'Home visit at Storgatan 12. Call me if I have not checked in.',
  oneMinuteWarning: true,
  recipientUserIds: [colleague],
  groupIds: [],
  ...overrides,
});
const user = async (tenants: number[], permissions: ReturnType<typeof only>) => {
  const u = await insertUser(ctx.services, { tenants, permissions });
  return { id: u.id, token: (await signIn(ctx.services, u.id)).accessToken };
};
const jobsOf = (alarmId: number) =>
  ctx.services.db
    .selectFrom('jobs')
    .select(['kind', 'status', 'run_at', 'dedupe_key'])
    .where('dedupe_key', 'like', `alarm:${alarmId}:%`)
    .orderBy('id')
    .execute();

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenantA = await insertTenant(ctx.services);
  tenantB = await insertTenant(ctx.services);
  owner = await user([tenantA], only('alarms.mayActivate', 'alarms.mayDeactivate'));
  stopper = await user([tenantA], only('alarms.mayDeactivate'));
  // An operator: stopping someone else's alarm takes a tenant administrator (personal-alarms/alarm-ownership.test.ts).
  await ctx.services.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', stopper.id).execute();
  starter = await user([tenantA], only('alarms.mayActivate'));
  noAlarms = await user([tenantA], only('cec.maySend'));
  ownerB = await user([tenantB], only('alarms.mayActivate', 'alarms.mayDeactivate'));
  colleague = (await insertUser(ctx.services, { tenants: [tenantA] })).id;
  outsider = (await insertUser(ctx.services, { tenants: [tenantB] })).id;
  team = await insertGroup(ctx.services, tenantA, 'Caretakers', [colleague]);
  emptyGroup = await insertGroup(ctx.services, tenantA, 'Nobody', []);
  groupOfB = await insertGroup(ctx.services, tenantB, 'Group of B', [outsider]);
});
afterAll(() => ctx.close());

describe('POST /core/v1/personal-alarms', () => {
  test('creates an active alarm for the caller and answers 201 with it; its timer is armed', async () => {
    const res = await as(owner).post(
      '',
      alarm({ location: { latitude: 59.3293, longitude: 18.0686 }, groupIds: [team] }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      text: 'Home visit at Storgatan 12. Call me if I have not checked in.',
      dispatchTime: '2026-11-22T09:30:00.000Z',
      createdTime: '2026-11-22T08:00:00.000Z',
      active: true,
      userId: owner.id,
      locationId: expect.any(Number),
      messageId: null,
      deviceId: `device-${device}`,
      oneMinuteWarning: true,
    });
    const location = await ctx.services.db
      .selectFrom('personal_alarm_locations')
      .select(['latitude', 'longitude', 'tenant_id'])
      .where('id', '=', res.body.locationId)
      .executeTakeFirstOrThrow();
    expect(location).toEqual({ latitude: 59.3293, longitude: 18.0686, tenant_id: tenantA });
    expect((await jobsOf(res.body.id)).map((j) => [j.kind, j.status, j.run_at.toISOString()])).toEqual([
      ['alarm.fire', 'pending', '2026-11-22T09:30:00.000Z'],
      ['alarm.warn', 'pending', '2026-11-22T09:29:00.000Z'],
    ]);
  });

  test('an inactive alarm arms no timer and has no location when none is given', async () => {
    const res = await as(owner).post('', alarm({ active: false }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ active: false, locationId: null });
    expect(await jobsOf(res.body.id)).toEqual([]);
  });

  test.each([
    [{ latitude: 59.3, longitude: -18.1 }, '/location/longitude'],
    [{ latitude: -1, longitude: 18.1 }, '/location/latitude'],
  ])('when the location %j is negative, answers 400 BAD_REQUEST', async (location, path) => {
    const res = await as(owner).post('', alarm({ location }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining(path) })]),
    );
  });

  test('without alarms.mayActivate, answers 403 FORBIDDEN', async () => {
    const res = await as(stopper).post('', alarm({ sender: { userId: stopper.id, deviceId: 'd' } }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The user may not start or change personal alarms',
    });
  });

  test('a membership whose permissions say nothing of alarms answers 403 FORBIDDEN', async () => {
    const silent = await user([tenantA], only('alarms.mayActivate'));
    await ctx.services.db
      .updateTable('memberships')
      .set({ permissions: JSON.stringify({}) })
      .where('user_id', '=', silent.id)
      .execute();
    const res = await as(silent).post('', alarm({ sender: { userId: silent.id, deviceId: 'silent-device' } }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The user may not start or change personal alarms',
    });
  });

  test.each([
    ['armed for later', { active: false }],
    ['going off now', { active: true, dispatchAt: new Date().toISOString() }],
  ])(
    "attack: a member creates an alarm %s in another member's name, so it reaches people as from them",
    async (_when, overrides) => {
      const res = await as(starter).post('', alarm(overrides));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN' });
    },
  );

  test('for another user than the caller, answers 403 FORBIDDEN', async () => {
    const res = await as(starter).post('', alarm());
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'A personal alarm can only be started for yourself',
    });
  });

  test.each([
    ['users and groups of another tenant', () => ({ recipientUserIds: [outsider], groupIds: [groupOfB] })],
    ['unknown ids', () => ({ recipientUserIds: [987654], groupIds: [987654] })],
    ['a group without members', () => ({ recipientUserIds: [], groupIds: [emptyGroup] })],
    ['no ids at all', () => ({ recipientUserIds: [], groupIds: [] })],
    ['only the owner', () => ({ recipientUserIds: [owner.id], groupIds: [] })],
  ])(
    'when the recipients are %s, answers 400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS and stores nothing',
    async (_name, recipients) => {
      const before = await ctx.services.db
        .selectFrom('personal_alarms')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const res = await as(owner).post('', alarm(recipients()));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'PERSONAL_ALARM_NOT_FOUND_RECIPIENTS',
        message: 'No valid recipients found',
      });
      const after = await ctx.services.db
        .selectFrom('personal_alarms')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    },
  );

  test('ids that are not of the tenant are left out of the recipients', async () => {
    const res = await as(owner).post(
      '',
      alarm({ recipientUserIds: [colleague, outsider], groupIds: [team, groupOfB] }),
    );
    expect(res.status).toBe(201);
    const users = await ctx.services.db
      .selectFrom('personal_alarm_recipient_users')
      .select('user_id')
      .where('alarm_id', '=', res.body.id)
      .execute();
    const groups = await ctx.services.db
      .selectFrom('personal_alarm_recipient_groups')
      .select('group_id')
      .where('alarm_id', '=', res.body.id)
      .execute();
    expect(users.map((u) => u.user_id)).toEqual([colleague]);
    expect(groups.map((g) => g.group_id)).toEqual([team]);
  });

  test('when the device already has an active alarm, answers 409 PERSONAL_ALARM_CONFLICT; inactive ones and other devices are fine', async () => {
    const first = await as(owner).post('', alarm({ sender: { userId: owner.id, deviceId: 'busy-device' } }));
    expect(first.status).toBe(201);
    const second = await as(owner).post('', alarm({ sender: { userId: owner.id, deviceId: 'busy-device' } }));
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({
      code: 'PERSONAL_ALARM_CONFLICT',
      message: 'The device already has an active personal alarm',
    });
    expect(
      (await as(owner).post('', alarm({ sender: { userId: owner.id, deviceId: 'busy-device' }, active: false })))
        .status,
    ).toBe(201);
    expect((await as(owner).post('', alarm({ sender: { userId: owner.id, deviceId: 'other-device' } }))).status).toBe(
      201,
    );
  });

  test('two requests racing for one device: exactly one alarm becomes active', async () => {
    const body = alarm({ sender: { userId: owner.id, deviceId: 'raced-device' } });
    const answers = await Promise.all([as(owner).post('', body), as(owner).post('', body), as(owner).post('', body)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('GET /core/v1/personal-alarms', () => {
  let older: number;
  let newer: number;
  let inactive: number;

  beforeAll(async () => {
    await ctx.services.db.deleteFrom('personal_alarms').execute();
    clock.advance(1_000);
    older = (await as(owner).post('', alarm())).body.id;
    clock.advance(1_000);
    inactive = (await as(owner).post('', alarm({ active: false }))).body.id;
    clock.advance(1_000);
    newer = (await as(owner).post('', alarm())).body.id;
    await as(ownerB, tenantB).post(
      '',
      alarm({ sender: { userId: ownerB.id, deviceId: 'b' }, recipientUserIds: [outsider] }),
    );
  });

  test("lists the tenant's alarms newest first with an exact totalCount", async () => {
    const res = await as(owner).get();
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual([newer, inactive, older]);
    expect(res.body.pagination).toEqual({ totalCount: 3, offset: 0, limit: 10 });
  });

  test('status=active keeps the active ones', async () => {
    const res = await as(owner).get('?status=active&limit=1&offset=1');
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual([older]);
    expect(res.body.pagination).toEqual({ totalCount: 2, offset: 1, limit: 1 });
  });

  test('an unknown status answers 400 BAD_REQUEST', async () => {
    expect((await as(owner).get('?status=inactive')).status).toBe(400);
  });

  test('alarms.mayDeactivate alone is enough to read', async () => {
    expect((await as(stopper).get()).status).toBe(200);
    expect((await as(stopper).get(`/${older}`)).status).toBe(200);
  });

  test('without alarms.mayActivate or mayDeactivate, answers 403 FORBIDDEN', async () => {
    expect((await as(noAlarms).get()).status).toBe(403);
    expect((await as(noAlarms).get(`/${older}`)).body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The user may not start or change personal alarms',
    });
  });

  test('another tenant sees only its own alarms', async () => {
    const res = await as(ownerB, tenantB).get();
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].userId).toBe(ownerB.id);
  });

  describe('GET /core/v1/personal-alarms/{id}', () => {
    test('answers the alarm', async () => {
      const res = await as(owner).get(`/${older}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: older, active: true, userId: owner.id });
    });

    test('an alarm of another tenant answers 404 PERSONAL_ALARM_NOT_FOUND', async () => {
      const res = await as(ownerB, tenantB).get(`/${older}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('PERSONAL_ALARM_NOT_FOUND');
    });

    test('an unknown alarm answers 404 PERSONAL_ALARM_NOT_FOUND', async () => {
      expect((await as(owner).get('/987654')).body.error).toMatchObject({
        code: 'PERSONAL_ALARM_NOT_FOUND',
        message: 'Personal alarm not found',
      });
    });
  });
});

describe('PATCH /core/v1/personal-alarms/{id}', () => {
  test('extending the timer moves its jobs to the new time', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(owner).patch(`/${id}`, { dispatchAt: '2026-11-22T10:00:00.000Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, dispatchTime: '2026-11-22T10:00:00.000Z', active: true });
    expect((await jobsOf(id)).map((j) => [j.kind, j.status, j.run_at.toISOString()])).toEqual([
      ['alarm.fire', 'cancelled', '2026-11-22T09:30:00.000Z'],
      ['alarm.warn', 'cancelled', '2026-11-22T09:29:00.000Z'],
      ['alarm.fire', 'pending', '2026-11-22T10:00:00.000Z'],
      ['alarm.warn', 'pending', '2026-11-22T09:59:00.000Z'],
    ]);
  });

  test('a change that names neither recipient list does not touch them, not even to read them', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const tables: string[] = [];
    const watching: KyselyPlugin = {
      transformQuery({ node }) {
        for (const from of 'from' in node && node.from ? node.from.froms : [])
          if (from.kind === 'TableNode') tables.push((from as TableNode).table.identifier.name);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const auth = { userId: owner.id, sessionId: 'watching', factors: {}, permissions: buildPermissions(true) };
    const db = ctx.services.db.withPlugin(watching);
    const changed = await updatePersonalAlarm({ ...ctx.services, db }, auth, tenantA, id, { text: 'Takes longer' });
    expect(changed.text).toBe('Takes longer');
    expect(tables).toContain('personal_alarms');
    expect(tables.filter((table) => table.startsWith('personal_alarm_recipient'))).toEqual([]);
  });

  test('changes text, location, warning and recipients; only what is given', async () => {
    const created = (await as(owner).post('', alarm({ location: { latitude: 1, longitude: 2 } }))).body;
    const res = await as(owner).patch(`/${created.id}`, {
      text: 'Takes longer',
      location: { latitude: 59.33, longitude: 18.07 },
      oneMinuteWarning: false,
      groupIds: [team],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      text: 'Takes longer',
      oneMinuteWarning: false,
      dispatchTime: created.dispatchTime,
      deviceId: created.deviceId,
    });
    expect(res.body.locationId).not.toBe(created.locationId);
    const groups = await ctx.services.db
      .selectFrom('personal_alarm_recipient_groups')
      .select('group_id')
      .where('alarm_id', '=', created.id)
      .execute();
    const users = await ctx.services.db
      .selectFrom('personal_alarm_recipient_users')
      .select('user_id')
      .where('alarm_id', '=', created.id)
      .execute();
    expect(groups.map((g) => g.group_id)).toEqual([team]);
    expect(users.map((u) => u.user_id)).toEqual([colleague]);
    expect((await jobsOf(created.id)).filter((j) => j.status === 'pending').map((j) => j.kind)).toEqual(['alarm.fire']);
  });

  test('when no valid recipient would remain, answers 400 PERSONAL_ALARM_NOT_FOUND_RECIPIENTS and changes nothing', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(owner).patch(`/${id}`, { recipientUserIds: [outsider], text: 'changed' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('PERSONAL_ALARM_NOT_FOUND_RECIPIENTS');
    expect((await as(owner).get(`/${id}`)).body.text).toBe(alarm().text);
  });

  test('an empty change answers 400 BAD_REQUEST', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    expect((await as(owner).patch(`/${id}`, {})).status).toBe(400);
  });

  test('an alarm of another tenant answers 404 PERSONAL_ALARM_NOT_FOUND and is unchanged', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(ownerB, tenantB).patch(`/${id}`, { text: 'hijacked' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('PERSONAL_ALARM_NOT_FOUND');
    expect((await as(owner).get(`/${id}`)).body.text).toBe(alarm().text);
  });

  test('an alarm that has been dispatched answers 409 PERSONAL_ALARM_CONFLICT', async () => {
    const { id } = (await as(owner).post('', alarm({ dispatchAt: clock.now().toISOString() }))).body;
    await ctx.services.jobs.runDueJobs();
    const res = await as(owner).patch(`/${id}`, { dispatchAt: '2026-11-23T10:00:00.000Z' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'PERSONAL_ALARM_CONFLICT',
      message: 'The personal alarm has already been dispatched',
    });
  });

  test('without alarms.mayActivate, answers 403 FORBIDDEN', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    expect((await as(stopper).patch(`/${id}`, { text: 'x' })).status).toBe(403);
  });
});

describe('POST /core/v1/personal-alarms/{id}/activate', () => {
  test('starts the timer of an inactive alarm', async () => {
    const { id } = (await as(owner).post('', alarm({ active: false }))).body;
    const res = await as(owner).post(`/${id}/activate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, active: true });
    expect((await jobsOf(id)).map((j) => [j.kind, j.status])).toEqual([
      ['alarm.fire', 'pending'],
      ['alarm.warn', 'pending'],
    ]);
  });

  test('an active alarm is answered unchanged and keeps its one timer', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(owner).post(`/${id}/activate`);
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(true);
    expect((await jobsOf(id)).filter((j) => j.status === 'pending')).toHaveLength(2);
  });

  test('when another alarm of the device is active, answers 409 PERSONAL_ALARM_CONFLICT', async () => {
    const sender = { userId: owner.id, deviceId: 'shared-device' };
    await as(owner).post('', alarm({ sender }));
    const { id } = (await as(owner).post('', alarm({ sender, active: false }))).body;
    const res = await as(owner).post(`/${id}/activate`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'PERSONAL_ALARM_CONFLICT',
      message: 'The device already has an active personal alarm',
    });
  });

  test('a dispatched alarm cannot be armed again: 409 PERSONAL_ALARM_CONFLICT', async () => {
    const { id } = (await as(owner).post('', alarm({ dispatchAt: clock.now().toISOString() }))).body;
    await ctx.services.jobs.runDueJobs();
    expect((await as(owner).get(`/${id}`)).body).toMatchObject({ active: false, messageId: expect.any(Number) });
    const res = await as(owner).post(`/${id}/activate`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'PERSONAL_ALARM_CONFLICT',
      message: 'The personal alarm has already been dispatched',
    });
  });

  test('an alarm of another tenant answers 404 PERSONAL_ALARM_NOT_FOUND', async () => {
    const { id } = (await as(owner).post('', alarm({ active: false }))).body;
    expect((await as(ownerB, tenantB).post(`/${id}/activate`)).body.error.code).toBe('PERSONAL_ALARM_NOT_FOUND');
    expect((await as(owner).get(`/${id}`)).body.active).toBe(false);
  });

  test('without alarms.mayActivate, answers 403 FORBIDDEN', async () => {
    const { id } = (await as(owner).post('', alarm({ active: false }))).body;
    expect((await as(stopper).post(`/${id}/activate`)).status).toBe(403);
  });
});

describe('POST /core/v1/personal-alarms/{id}/deactivate', () => {
  test("stops the timer (here an operator stops the owner's alarm): the alarm is inactive and its jobs are cancelled", async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(stopper).post(`/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, active: false, messageId: null });
    expect((await jobsOf(id)).map((j) => j.status)).toEqual(['cancelled', 'cancelled']);
  });

  test('an inactive alarm is answered unchanged', async () => {
    const { id } = (await as(owner).post('', alarm({ active: false }))).body;
    const res = await as(owner).post(`/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body.active).toBe(false);
  });

  test('an alarm of another tenant answers 404 PERSONAL_ALARM_NOT_FOUND and keeps running', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(ownerB, tenantB).post(`/${id}/deactivate`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('PERSONAL_ALARM_NOT_FOUND');
    expect((await as(owner).get(`/${id}`)).body.active).toBe(true);
  });

  test('without alarms.mayDeactivate, answers 403 FORBIDDEN', async () => {
    const { id } = (await as(owner).post('', alarm())).body;
    const res = await as(starter).post(`/${id}/deactivate`);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'The user may not stop personal alarms' });
    expect((await as(owner).get(`/${id}`)).body.active).toBe(true);
  });
});

describe('the job runner', () => {
  test('is woken by every change that arms, moves or stops a timer, so an alarm due now leaves without waiting for its next poll', async () => {
    const wake = jest.spyOn(ctx.services.jobs, 'wake');
    try {
      const { id } = (await as(owner).post('', alarm({ active: false }))).body;
      expect(wake).toHaveBeenCalledTimes(1);
      expect((await as(owner).patch(`/${id}`, { text: 'Boiler room, level 2' })).status).toBe(200);
      expect(wake).toHaveBeenCalledTimes(2);
      expect((await as(owner).post(`/${id}/activate`)).status).toBe(200);
      expect(wake).toHaveBeenCalledTimes(3);
      expect((await as(owner).post(`/${id}/deactivate`)).status).toBe(200);
      expect(wake).toHaveBeenCalledTimes(4);
    } finally {
      wake.mockRestore();
    }
  });
});
