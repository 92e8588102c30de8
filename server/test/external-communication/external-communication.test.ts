// External communication through HTTP (the validator checks every request and answer against the contract).
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import {
  fakeClock,
  insertExternalGroup,
  insertContact,
  insertSenderSettings,
  insertTemplate,
  only,
  outbox,
} from '../support/crisis-fixtures';

const clock = fakeClock();
let ctx: TestContext;
let tenantA: number;
let tenantB: number;
let tenantUnconfigured: number;
let sender: string;
let senderId: number;
let withoutPermission: string;
let senderB: string;
let parents: number;
let suppliers: number;
let groupOfB: number;

const base = '/core/v1/external-communications';
const as = (token: string, tenant: number) => ({
  get: (path: string) =>
    request(ctx.app)
      .get(`${base}${path}`)
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${token}`),
  post: (path: string, body: unknown) =>
    request(ctx.app)
      .post(`${base}${path}`)
      .set(v1)
      .set('cosafe-tenant-id', String(tenant))
      .set('authorization', `Bearer ${token}`)
      .send(body as object),
});
const message = (overrides: Record<string, unknown> = {}) => ({
  externalCommunicationGroupIds: [parents],
  text: 'Water supply is interrupted until 14:00.',
  channel: { isEmail: true, isSms: false },
  ...overrides,
});

beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  tenantA = await insertTenant(ctx.services);
  tenantB = await insertTenant(ctx.services);
  tenantUnconfigured = await insertTenant(ctx.services);
  const user = await insertUser(ctx.services, {
    name: 'Anna Andersson',
    tenants: [tenantA, tenantUnconfigured],
    permissions: only('cec.maySend'),
  });
  senderId = user.id;
  sender = (await signIn(ctx.services, user.id)).accessToken;
  const plain = await insertUser(ctx.services, { tenants: [tenantA], permissions: only('alarms.mayActivate') });
  withoutPermission = (await signIn(ctx.services, plain.id)).accessToken;
  const userB = await insertUser(ctx.services, { tenants: [tenantB], permissions: only('cec.maySend') });
  senderB = (await signIn(ctx.services, userB.id)).accessToken;
  await insertSenderSettings(ctx.services, tenantA);
  await insertSenderSettings(ctx.services, tenantB);

  const erik = await insertContact(ctx.services, tenantA, {
    name: 'Erik Svensson',
    email: 'erik@example.com',
    phone: '+46700000002',
  });
  parents = (
    await insertExternalGroup(ctx.services, tenantA, 'Parents class 3B', [
      erik,
      { name: 'maria Lind', title: 'Chair', phone: '+46700000003' },
      { name: 'Karin Holm', email: 'karin@example.com' },
    ])
  ).id;
  suppliers = (
    await insertExternalGroup(ctx.services, tenantA, 'Suppliers', [
      erik,
      { name: 'Lars Ek', email: 'lars@example.com', phone: '+46700000004' },
    ])
  ).id;
  await insertExternalGroup(ctx.services, tenantA, 'empty group');
  groupOfB = (
    await insertExternalGroup(ctx.services, tenantB, 'Group of B', [{ name: 'Bea', email: 'bea@example.com' }])
  ).id;
  await insertTemplate(ctx.services, tenantA, 'Water', 'Water supply is interrupted.');
  await insertTemplate(ctx.services, tenantA, 'building closed', 'The building is closed today.');
  await insertTemplate(ctx.services, tenantB, 'B template', 'Only for B.');
});
afterAll(() => ctx.close());

describe('GET /core/v1/external-communications/groups', () => {
  test("lists the tenant's groups by name with their member counts, and nothing of other tenants", async () => {
    const res = await as(sender, tenantA).get('/groups');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: expect.any(Number), name: 'empty group', memberCount: 0 },
        { id: parents, name: 'Parents class 3B', memberCount: 3 },
        { id: suppliers, name: 'Suppliers', memberCount: 2 },
      ],
      pagination: { totalCount: 3, offset: 0, limit: 10 },
    });
  });

  test('pages with an exact totalCount', async () => {
    const res = await as(sender, tenantA).get('/groups?limit=1&offset=1');
    expect(res.body).toEqual({
      data: [{ id: parents, name: 'Parents class 3B', memberCount: 3 }],
      pagination: { totalCount: 3, offset: 1, limit: 1 },
    });
  });

  test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
    const res = await as(withoutPermission, tenantA).get('/groups');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  });

  test('another tenant sees only its own groups', async () => {
    const res = await as(senderB, tenantB).get('/groups');
    expect(res.body.data).toEqual([{ id: groupOfB, name: 'Group of B', memberCount: 1 }]);
  });
});

describe('GET /core/v1/external-communications/templates', () => {
  test("lists the tenant's templates by name", async () => {
    const res = await as(sender, tenantA).get('/templates');
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['building closed', 'Water']);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      name: 'building closed',
      content: 'The building is closed today.',
    });
    expect(res.body.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });
  });

  test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
    const res = await as(withoutPermission, tenantA).get('/templates');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  });

  test('another tenant sees only its own templates', async () => {
    const res = await as(senderB, tenantB).get('/templates');
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['B template']);
  });
});

describe('POST /core/v1/external-communications/messages', () => {
  const countMessages = async () =>
    Number(
      (
        await ctx.services.db
          .selectFrom('cec_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("when neither isEmail nor isSms is true, answers 400 with the message 'At least one of 'isEmail' or 'isSms' must be true'", async () => {
    const before = await countMessages();
    const res = await as(sender, tenantA).post(
      '/messages',
      message({ channel: { isEmail: false, isSms: false }, includeVoiceCall: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      message: "At least one of 'isEmail' or 'isSms' must be true",
    });
    expect(await countMessages()).toBe(before);
  });

  test('when no group is given, answers 400 BAD_REQUEST', async () => {
    const res = await as(sender, tenantA).post('/messages', message({ externalCommunicationGroupIds: [] }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  test.each(['', '   \n '])('when the text is %j, answers 400 BAD_REQUEST', async (text) => {
    const res = await as(sender, tenantA).post('/messages', message({ text }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
    const res = await as(withoutPermission, tenantA).post('/messages', message());
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  });

  test('when a group belongs to another tenant, answers 403 CEC_MESSAGE_GROUP_FORBIDDEN and stores nothing', async () => {
    const before = await countMessages();
    const res = await as(sender, tenantA).post(
      '/messages',
      message({ externalCommunicationGroupIds: [parents, groupOfB] }),
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'CEC_MESSAGE_GROUP_FORBIDDEN',
      message: `The message may not be sent to group ${groupOfB}`,
    });
    expect(await countMessages()).toBe(before);
  });

  test('when a group does not exist, answers 403 CEC_MESSAGE_GROUP_FORBIDDEN', async () => {
    const res = await as(sender, tenantA).post('/messages', message({ externalCommunicationGroupIds: [999_999] }));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CEC_MESSAGE_GROUP_FORBIDDEN');
  });

  test('when the tenant has no sender settings, answers 409 CEC_TENANT_CONFIGURATION_INCOMPLETE', async () => {
    const res = await as(sender, tenantUnconfigured).post('/messages', message());
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CEC_TENANT_CONFIGURATION_INCOMPLETE');
  });

  test('answers 201 with the stored message at once; delivery waits for the jobs', async () => {
    const sentBefore = (await outbox(ctx.services)).length;
    const res = await as(sender, tenantA).post(
      '/messages',
      message({ externalCommunicationGroupIds: [suppliers, parents], includeConfirmationLink: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      content: 'Water supply is interrupted until 14:00.',
      channel: { isEmail: true, isSms: false },
      hasVoiceCall: false,
      hasConfirmationLink: true,
      sender: { name: 'Anna Andersson' },
      sentAt: clock.now().toISOString(),
      externalCommunicationGroups: [
        { id: parents, name: 'Parents class 3B' },
        { id: suppliers, name: 'Suppliers' },
      ],
    });
    expect((await outbox(ctx.services)).length).toBe(sentBefore);
    const job = await ctx.services.db
      .selectFrom('jobs')
      .select(['kind', 'status'])
      .where('dedupe_key', '=', `cec:${res.body.id}:deliver`)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ kind: 'cec.deliver', status: 'pending' });
    await ctx.services.jobs.runDueJobs();
  });
});

describe('GET /core/v1/external-communications/messages', () => {
  let first: number;
  let second: number;
  let third: number;
  let bMessage: number;

  beforeAll(async () => {
    await ctx.services.db.deleteFrom('cec_messages').execute();
    clock.advance(60_000);
    first = (await as(sender, tenantA).post('/messages', message({ text: 'Fire drill at 10:00 (100% attendance)' })))
      .body.id;
    clock.advance(60_000);
    second = (
      await as(sender, tenantA).post(
        '/messages',
        message({ text: 'The FIRE alarm is tested today', externalCommunicationGroupIds: [suppliers] }),
      )
    ).body.id;
    clock.advance(60_000);
    third = (
      await as(sender, tenantA).post(
        '/messages',
        message({ text: 'Use room_1 for pick-up', channel: { isEmail: false, isSms: true } }),
      )
    ).body.id;
    bMessage = (
      await as(senderB, tenantB).post(
        '/messages',
        message({ externalCommunicationGroupIds: [groupOfB], text: 'fire in B' }),
      )
    ).body.id;
  });

  const ids = (res: request.Response) => res.body.data.map((m: { id: number }) => m.id);

  test("lists the tenant's messages newest first with an exact totalCount", async () => {
    const res = await as(sender, tenantA).get('/messages');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([third, second, first]);
    expect(res.body.pagination).toEqual({ totalCount: 3, offset: 0, limit: 10 });
    expect(res.body.data[1]).toMatchObject({
      content: 'The FIRE alarm is tested today',
      externalCommunicationGroups: [{ id: suppliers, name: 'Suppliers' }],
    });
  });

  test('pages keep the order and the total', async () => {
    const res = await as(sender, tenantA).get('/messages?limit=2&offset=1');
    expect(ids(res)).toEqual([second, first]);
    expect(res.body.pagination).toEqual({ totalCount: 3, offset: 1, limit: 2 });
  });

  test('content[match] keeps messages containing the text, ignoring case', async () => {
    const res = await as(sender, tenantA).get('/messages').query({ 'content[match]': 'fire' });
    expect(ids(res)).toEqual([second, first]);
    expect(res.body.pagination.totalCount).toBe(2);
  });

  test.each([
    ['%', 'first'],
    ['_', 'third'],
  ])('content[match] takes %s literally', async (text, which) => {
    const res = await as(sender, tenantA).get('/messages').query({ 'content[match]': text });
    expect(ids(res)).toEqual([which === 'first' ? first : third]);
  });

  test('externalCommunicationGroupIds keeps messages sent to one of the groups', async () => {
    expect(ids(await as(sender, tenantA).get(`/messages?externalCommunicationGroupIds=${suppliers}`))).toEqual([
      second,
    ]);
    expect(
      ids(await as(sender, tenantA).get(`/messages?externalCommunicationGroupIds=${suppliers},${parents}`)),
    ).toEqual([third, second, first]);
    expect(ids(await as(sender, tenantA).get(`/messages?externalCommunicationGroupIds=${groupOfB}`))).toEqual([]);
  });

  test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
    const res = await as(withoutPermission, tenantA).get('/messages');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  });

  test('another tenant sees only its own messages', async () => {
    expect(ids(await as(senderB, tenantB).get('/messages'))).toEqual([bMessage]);
  });

  test('when the sender has been deleted, sender.name is null', async () => {
    const gone = await insertUser(ctx.services, { tenants: [tenantA], permissions: only('cec.maySend') });
    const token = (await signIn(ctx.services, gone.id)).accessToken;
    clock.advance(60_000);
    const sent = await as(token, tenantA).post('/messages', message());
    expect(sent.body.sender).toEqual({ name: 'Test User' });
    await ctx.services.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const res = await as(sender, tenantA).get(`/messages/${sent.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body.sender).toEqual({ name: null });
    expect((await as(sender, tenantA).get('/messages')).body.data[0]).toMatchObject({
      id: sent.body.id,
      sender: { name: null },
    });
  });

  describe('GET /core/v1/external-communications/messages/{messageId}', () => {
    test('answers the message', async () => {
      const res = await as(sender, tenantA).get(`/messages/${second}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: second,
        sender: { name: 'Anna Andersson' },
        channel: { isEmail: true, isSms: false },
      });
    });

    test('a message of another tenant answers 404 CEC_MESSAGE_NOT_FOUND', async () => {
      const res = await as(sender, tenantA).get(`/messages/${bMessage}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('CEC_MESSAGE_NOT_FOUND');
    });

    test('an unknown message answers 404 CEC_MESSAGE_NOT_FOUND', async () => {
      const res = await as(sender, tenantA).get('/messages/987654');
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('CEC_MESSAGE_NOT_FOUND');
    });

    test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
      const res = await as(withoutPermission, tenantA).get(`/messages/${second}`);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
    });
  });
});

describe('GET /core/v1/external-communications/messages/{messageId}/recipients', () => {
  let id: number;

  beforeAll(async () => {
    clock.advance(60_000);
    const res = await as(sender, tenantA).post(
      '/messages',
      message({ externalCommunicationGroupIds: [parents, suppliers], channel: { isEmail: true, isSms: true } }),
    );
    id = res.body.id;
  });

  test('before the delivery job ran, the list is empty', async () => {
    const res = await as(sender, tenantA).get(`/messages/${id}/recipients`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } });
  });

  test('lists each person once, by name, with the dispatch by each channel and the groups they are in', async () => {
    await ctx.services.jobs.runDueJobs();
    const res = await as(sender, tenantA).get(`/messages/${id}/recipients`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ totalCount: 4, offset: 0, limit: 10 });
    expect(res.body.data).toEqual([
      {
        id: expect.any(Number),
        name: 'Erik Svensson',
        title: null,
        dispatches: {
          byEmail: { sentTo: 'erik@example.com', status: 'sent', readAt: null },
          bySms: { sentTo: '+46700000002', status: 'sent', readAt: null },
        },
        externalCommunicationGroupIds: [parents, suppliers],
      },
      {
        id: expect.any(Number),
        name: 'Karin Holm',
        title: null,
        dispatches: { byEmail: { sentTo: 'karin@example.com', status: 'sent', readAt: null }, bySms: null },
        externalCommunicationGroupIds: [parents],
      },
      {
        id: expect.any(Number),
        name: 'Lars Ek',
        title: null,
        dispatches: {
          byEmail: { sentTo: 'lars@example.com', status: 'sent', readAt: null },
          bySms: { sentTo: '+46700000004', status: 'sent', readAt: null },
        },
        externalCommunicationGroupIds: [suppliers],
      },
      {
        id: expect.any(Number),
        name: 'maria Lind',
        title: 'Chair',
        dispatches: { byEmail: null, bySms: { sentTo: '+46700000003', status: 'sent', readAt: null } },
        externalCommunicationGroupIds: [parents],
      },
    ]);
  });

  test('pages with an exact totalCount', async () => {
    const res = await as(sender, tenantA).get(`/messages/${id}/recipients?limit=1&offset=3`);
    expect(res.body.data.map((r: { name: string }) => r.name)).toEqual(['maria Lind']);
    expect(res.body.pagination).toEqual({ totalCount: 4, offset: 3, limit: 1 });
  });

  test('a message of another tenant answers 404 CEC_MESSAGE_NOT_FOUND', async () => {
    const res = await as(senderB, tenantB).get(`/messages/${id}/recipients`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('CEC_MESSAGE_NOT_FOUND');
  });

  test('without cec.maySend, answers 403 INSUFFICIENT_PRIVILEGES', async () => {
    const res = await as(withoutPermission, tenantA).get(`/messages/${id}/recipients`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  });

  test('the sender user id is kept with the message for the audit trail', async () => {
    const row = await ctx.services.db
      .selectFrom('cec_messages')
      .select('sender_user_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.sender_user_id).toBe(senderId);
  });
});
