// Attack: a message of invisible characters only (zero-width space, joiners, BOM, other format characters, or
// private-use and unassigned code points that render as nothing or a blank box) passes "must not be blank" and goes
// out to every recipient as an empty SMS or email, or arms an alarm that says nothing.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { insertExternalGroup, insertSenderSettings, only } from '../support/crisis-fixtures';

let ctx: TestContext;
let tenant: number;
let token: string;
let userId: number;
let colleague: number;
let group: number;

const invisible = [
  '\u200b',
  '\u200c\u200d',
  '\ufeff',
  '\u2060\u2061',
  '\u00ad',
  ' \u200b\n\t\u200b ',
  '\u180e',
  '\u034f',
  '\u2800',
  '\u3164',
  '\u202e\u202c',
  '\ufe0f',
];

// Private-use (Co) and unassigned (Cn) code points: most recipients see nothing or a blank box.
const privateOrUnassigned = [
  '\ue000',
  '\uf8ff\ue123',
  '\u{f0000}',
  '\u{10fffd}',
  '\u0378',
  '\uffff',
  '\u{e0080}',
  ' \ue000\n\u0378 \u200b',
];

const post = (path: string, body: object) =>
  request(ctx.app)
    .post(`/core/v1${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${token}`)
    .send(body);
const patch = (path: string, body: object) =>
  request(ctx.app)
    .patch(`/core/v1${path}`)
    .set(v1)
    .set('cosafe-tenant-id', String(tenant))
    .set('authorization', `Bearer ${token}`)
    .send(body);
let device = 0;
const alarm = (text: string) => ({
  sender: { userId, deviceId: `invisible-${++device}` },
  dispatchAt: '2030-01-01T00:00:00.000Z',
  active: false,
  text,
  oneMinuteWarning: false,
  recipientUserIds: [colleague],
  groupIds: [],
});

beforeAll(async () => {
  ctx = await createTestContext();
  tenant = await insertTenant(ctx.services);
  const user = await insertUser(ctx.services, {
    tenants: [tenant],
    permissions: only('cec.maySend', 'alarms.mayActivate', 'alarms.mayDeactivate'),
  });
  userId = user.id;
  token = (await signIn(ctx.services, user.id)).accessToken;
  colleague = (await insertUser(ctx.services, { tenants: [tenant] })).id;
  await insertSenderSettings(ctx.services, tenant);
  group = (await insertExternalGroup(ctx.services, tenant, 'Parents', [{ name: 'Erik', email: 'erik@example.com' }]))
    .id;
});
afterAll(() => ctx.close());

const expectTextRefused = (res: request.Response) => {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('BAD_REQUEST');
  expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'body', path: '/text' })]);
};

describe('a text of invisible characters only is refused', () => {
  test.each(invisible.map((t) => [JSON.stringify(t), t]))('an external message of %s', async (_, text) => {
    expectTextRefused(
      await post('/external-communications/messages', {
        externalCommunicationGroupIds: [group],
        text,
        channel: { isEmail: true, isSms: false },
      }),
    );
    expect(await ctx.services.db.selectFrom('cec_messages').select('id').execute()).toEqual([]);
  });

  test.each(invisible.map((t) => [JSON.stringify(t), t]))(
    'a personal alarm of %s, created or changed',
    async (_, text) => {
      expectTextRefused(await post('/personal-alarms', alarm(text)));
      const created = await post('/personal-alarms', alarm('Boiler room'));
      expect(created.status).toBe(201);
      expectTextRefused(await patch(`/personal-alarms/${created.body.id}`, { text }));
    },
  );

  test.each(privateOrUnassigned.map((t) => [JSON.stringify(t), t]))(
    'an external message or a personal alarm of private-use or unassigned characters %s',
    async (_, text) => {
      expectTextRefused(
        await post('/external-communications/messages', {
          externalCommunicationGroupIds: [group],
          text,
          channel: { isEmail: true, isSms: false },
        }),
      );
      expect(await ctx.services.db.selectFrom('cec_messages').select('id').execute()).toEqual([]);
      expectTextRefused(await post('/personal-alarms', alarm(text)));
      const created = await post('/personal-alarms', alarm('Boiler room'));
      expect(created.status).toBe(201);
      expectTextRefused(await patch(`/personal-alarms/${created.body.id}`, { text }));
    },
  );

  test('visible text with joiners, marks and emoji still goes through', async () => {
    expect((await post('/personal-alarms', alarm('👩\u200d🚒 Brandlarm, e\u0301tage 2'))).status).toBe(201);
    expect((await post('/personal-alarms', alarm('\ue000 Fire in block B'))).status).toBe(201);
    expect(
      (
        await post('/external-communications/messages', {
          externalCommunicationGroupIds: [group],
          text: '\u200bWater is off',
          channel: { isEmail: true, isSms: false },
        })
      ).status,
    ).toBe(201);
  });
});
