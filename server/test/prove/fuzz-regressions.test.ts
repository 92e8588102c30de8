// Defects the fuzzing found, one test each, so they stay fixed even if the fuzzers change.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { buildWorld, type World } from './support/world';

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await buildWorld(ctx);
}, 60_000);
afterAll(() => ctx.close());

const asAdmin = (r: request.Test) =>
  r.set(v1).set('authorization', `Bearer ${world.A.admin.token}`).set('cosafe-tenant-id', String(world.A.tenantId));
const scim = (r: request.Test) =>
  r.set('authorization', `Bearer ${world.A.apiKey.key}`).set('content-type', 'application/scim+json');

describe('a NUL character (U+0000), which PostgreSQL text cannot hold (was 500 INTERNAL_SERVER_ERROR)', () => {
  test('in a body string, answers 400 BAD_REQUEST naming the property', async () => {
    const res = await asAdmin(request(ctx.app).post('/core/v1/api-keys')).send({ name: 'key\u0000name' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', issues: [{ where: 'body', path: '/name' }] });
    expect(
      await ctx.services.db.selectFrom('api_keys').select('id').where('name', 'like', 'key%name').execute(),
    ).toEqual([]);
  });

  test('nested in a body, answers 400 BAD_REQUEST with its JSON pointer', async () => {
    const res = await asAdmin(request(ctx.app).post('/core/v1/personal-alarms')).send({
      sender: { userId: world.A.admin.id, deviceId: 'device\u0000' },
      dispatchAt: new Date(Date.now() + 3_600_000).toISOString(),
      active: false,
      text: 'x',
      oneMinuteWarning: false,
      recipientUserIds: [world.A.member.id],
      groupIds: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'body', path: '/sender/deviceId' })]);
  });

  test('under a key with / and ~ or in a key itself, the pointer escapes them (RFC 6901)', async () => {
    const inValue = await asAdmin(request(ctx.app).post('/core/v1/api-keys')).send({
      name: 'x',
      'we/ird~key': ['fine', { deep: 'bad\u0000' }],
    });
    expect(inValue.status).toBe(400);
    expect(inValue.body.error.issues).toEqual([
      expect.objectContaining({ where: 'body', path: '/we~1ird~0key/1/deep' }),
    ]);
    const inKey = await asAdmin(request(ctx.app).post('/core/v1/api-keys')).send({
      name: 'x',
      outer: { 'k\u0000': 1 },
    });
    expect(inKey.status).toBe(400);
    expect(inKey.body.error.issues).toEqual([expect.objectContaining({ where: 'body', path: '/outer/k\u0000' })]);
  });

  test('in a query parameter, answers 400 BAD_REQUEST', async () => {
    const res = await asAdmin(request(ctx.app).get('/core/v1/groups?name[match]=%00'));
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'query', path: 'name[match]' })]);
  });

  test('in the path, answers 400 BAD_REQUEST', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/scim/v2/Users/abc%00def')
      .set('authorization', `Bearer ${world.A.apiKey.key}`);
    expect(res.status).toBe(400);
  });

  test("in a SCIM body, answers SCIM's 400 error", async () => {
    const res = await scim(request(ctx.app).post('/core/v1/scim/v2/Groups')).send({ displayName: 'Group\u0000' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/scim\+json/);
    expect(res.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400' });
  });

  test('other unusual text still works: emoji, right-to-left marks, zero-width spaces', async () => {
    const res = await asAdmin(request(ctx.app).post('/core/v1/api-keys')).send({
      name: 'Nyckel 😀 \u202eabc\u202c zero\u200bwidth',
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Nyckel 😀 \u202eabc\u202c zero\u200bwidth');
  });
});

describe('a bracketed query key the contract does not declare (was 500 from the validator)', () => {
  test('on an array parameter, answers 400 BAD_REQUEST naming the key', async () => {
    const res = await asAdmin(
      request(ctx.app).get('/core/v1/external-communications/messages?externalCommunicationGroupIds[$gt]=1'),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      expect.objectContaining({ where: 'query', path: 'externalCommunicationGroupIds[$gt]' }),
    ]);
  });

  test('prototype-pollution shaped keys answer 400 BAD_REQUEST', async () => {
    const res = await asAdmin(request(ctx.app).get('/core/v1/groups?__proto__[admin]=1'));
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  test("the contract's own bracketed names still work", async () => {
    const res = await asAdmin(
      request(ctx.app).get(`/core/v1/groups?name[match]=${encodeURIComponent(world.A.marker)}&membersCount[gte]=1`),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((g: { id: number }) => g.id)).toContain(world.A.groupId);
  });
});

describe('SCIM paging past every bigint (was 500: invalid input syntax for type bigint)', () => {
  test.each(['Users', 'Groups'])(
    'GET /scim/v2/%s?startIndex=99999999999999999999999 answers an empty page',
    async (resource) => {
      const res = await request(ctx.app)
        .get(`/core/v1/scim/v2/${resource}?startIndex=99999999999999999999999`)
        .set('authorization', `Bearer ${world.A.apiKey.key}`);
      expect(res.status).toBe(200);
      expect(res.body.Resources).toEqual([]);
      expect(res.body.totalResults).toBeGreaterThan(0);
    },
  );
});

describe('a UUID with the urn:uuid: prefix, which the uuid format allows and the database refuses (was 500)', () => {
  const urn = 'urn:uuid:aed0e0c8-31ab-1289-cfd5-56d464b5f9a2';
  test.each([
    ['PATCH', `/core/v1/passkeys/${urn}`, { name: 'Laptop' }],
    ['DELETE', `/core/v1/passkeys/${urn}`, undefined],
    ['DELETE', `/core/v1/sessions/${urn}`, undefined],
    ['DELETE', `/core/v1/api-keys/${urn}`, undefined],
  ])('%s %s answers 400 BAD_REQUEST naming the path parameter', async (method, path, body) => {
    const call = request(ctx.app)[method.toLowerCase() as 'patch' | 'delete'](path);
    const res = await asAdmin(body ? call.send(body) : call);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'path' })]);
  });
});
