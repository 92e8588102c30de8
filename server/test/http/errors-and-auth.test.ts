import request from 'supertest';
import { SignJWT, importJWK } from 'jose';
import { resolveSecrets } from '../../src/security/secrets';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';

let ctx: TestContext;
let tenantA: number;
let tenantB: number;
let user: { id: number };
let token: string;

const secretDetail = 'boom: connection string postgres://admin:hunter2@db';

beforeAll(async () => {
  ctx = await createTestContext({
    handlers: (handlers) => ({
      ...handlers,
      // A handler that fails unexpectedly, to see what the caller and the logs get.
      listTenants: async () => {
        throw new Error(secretDetail);
      },
    }),
  });
  tenantA = await insertTenant(ctx.services);
  tenantB = await insertTenant(ctx.services);
  user = await insertUser(ctx.services, { tenants: [tenantA] });
  ({ accessToken: token } = await signIn(ctx.services, user.id));
});
afterAll(() => ctx.close());

const expectEnvelope = (res: request.Response, httpStatus: number, code: string) => {
  expect(res.status).toBe(httpStatus);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body).toMatchObject({ status: 'error', error: { httpStatus, code } });
};

describe('the version header', () => {
  test('when it is missing, answers 400 BAD_REQUEST naming the header', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set('authorization', `Bearer ${token}`)
      .set('cosafe-tenant-id', String(tenantA));
    expectEnvelope(res, 400, 'BAD_REQUEST');
    expect(res.body.error.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ where: 'header', path: 'cosafe-core-api-version' })]),
    );
  });

  test('when it is not 1, answers 400 BAD_REQUEST', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set({ 'cosafe-core-api-version': '2', 'cosafe-tenant-id': String(tenantA) })
      .set('authorization', `Bearer ${token}`);
    expectEnvelope(res, 400, 'BAD_REQUEST');
  });
});

describe('the tenant header', () => {
  test.each(['0', 'abc', '12345678901', '-1', '1.5', ''])('when it is %j, answers 400 BAD_REQUEST', async (value) => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', value)
      .set('authorization', `Bearer ${token}`);
    expectEnvelope(res, 400, 'BAD_REQUEST');
  });

  test('when it names a tenant the user does not belong to, answers 403 FORBIDDEN', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', String(tenantB))
      .set('authorization', `Bearer ${token}`);
    expectEnvelope(res, 403, 'FORBIDDEN');
  });

  test('when it names a tenant that does not exist, answers 403 FORBIDDEN', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', '9999999')
      .set('authorization', `Bearer ${token}`);
    expectEnvelope(res, 403, 'FORBIDDEN');
  });

  test("when it names the user's tenant, the request reaches the operation", async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', String(tenantA))
      .set('authorization', `Bearer ${token}`);
    expect(res.status).not.toBe(403);
    expect(res.status).not.toBe(401);
  });
});

describe('the access token', () => {
  const get = () => request(ctx.app).get('/core/v1/groups').set(v1).set('cosafe-tenant-id', String(tenantA));

  test('when it is missing, answers 401 UNAUTHORIZED', async () => {
    expectEnvelope(await get(), 401, 'UNAUTHORIZED');
  });

  test.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'bearer', 'Token abc'])(
    'when the header is %j, answers 401 INVALID_AUTHORIZATION_HEADER',
    async (header) => {
      expectEnvelope(await get().set('authorization', header), 401, 'INVALID_AUTHORIZATION_HEADER');
    },
  );

  test('when it is not a token of this region, answers 401 UNAUTHORIZED', async () => {
    expectEnvelope(
      await get().set('authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc'),
      401,
      'UNAUTHORIZED',
    );
  });

  test('when its signature was made with another key, answers 401 UNAUTHORIZED', async () => {
    const other = await resolveSecrets({
      ...ctx.config,
      dataDir: null,
      secrets: { signingKeys: null, secretKey: null },
    });
    const key = await importJWK(other.signingKeys[0], 'ES256');
    const forged = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'ES256', kid: other.signingKeys[0].kid, typ: 'at+jwt' })
      .setSubject(String(user.id))
      .setIssuer(ctx.config.publicBaseUrl)
      .setAudience('core-api')
      .setExpirationTime('5m')
      .sign(key);
    expectEnvelope(await get().set('authorization', `Bearer ${forged}`), 401, 'UNAUTHORIZED');
  });

  test('when it has expired, answers 401 EXPIRED_ACCESS_TOKEN', async () => {
    const { sessionId } = await signIn(ctx.services, user.id);
    const expired = await ctx.services.tokens.sign({ userId: user.id, sessionId }, new Date(Date.now() - 2 * 3600_000));
    expectEnvelope(await get().set('authorization', `Bearer ${expired}`), 401, 'EXPIRED_ACCESS_TOKEN');
  });

  test('a token that worked expires all the same (verified tokens are remembered only until their expiry)', async () => {
    const { sessionId } = await signIn(ctx.services, user.id);
    // Issued 14 minutes 50 seconds ago: valid for 10 more seconds (plus the 5 s clock tolerance).
    const issued = new Date(Date.now() - (ctx.config.accessTokenTtlSeconds - 10) * 1000);
    const token = await ctx.services.tokens.sign({ userId: user.id, sessionId }, issued);
    expect((await get().set('authorization', `Bearer ${token}`)).status).not.toBe(401);
    // Only the clock moves on (Date), timers and ticks stay real.
    jest.useFakeTimers({
      now: Date.now() + 16_000,
      doNotFake: [
        'nextTick',
        'setImmediate',
        'queueMicrotask',
        'setTimeout',
        'setInterval',
        'clearTimeout',
        'clearInterval',
        'clearImmediate',
        'hrtime',
        'performance',
      ],
    });
    try {
      await expect(ctx.services.tokens.verify(token)).rejects.toMatchObject({ code: 'EXPIRED_ACCESS_TOKEN' });
    } finally {
      jest.useRealTimers();
    }
  });

  test('when its session was revoked, answers 401 INVALID_SESSION', async () => {
    const { sessionId, accessToken } = await signIn(ctx.services, user.id);
    expect((await get().set('authorization', `Bearer ${accessToken}`)).status).not.toBe(401);
    await ctx.services.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'logout' })
      .where('id', '=', sessionId)
      .execute();
    expectEnvelope(await get().set('authorization', `Bearer ${accessToken}`), 401, 'INVALID_SESSION');
  });

  test('when the session still waits for its second factor, other operations answer 403 FORBIDDEN', async () => {
    const { accessToken } = await signIn(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
    expectEnvelope(await get().set('authorization', `Bearer ${accessToken}`), 403, 'FORBIDDEN');
  });
});

describe('malformed requests', () => {
  test('malformed JSON answers 400 BAD_REQUEST', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .set('content-type', 'application/json')
      .send('{"grantType":');
    expectEnvelope(res, 400, 'BAD_REQUEST');
    expect(res.body.error.issues[0]).toMatchObject({ where: 'body' });
  });

  test('a body over the limit answers 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ grantType: 'password', email: 'a@b.se', password: 'x'.repeat(200_000) }));
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a body that breaks the schema answers 400 with where and what', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: 'not-an-email', password: 'x' });
    expectEnvelope(res, 400, 'BAD_REQUEST');
    expect(res.body.error.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ where: 'body', path: '/email' })]),
    );
  });

  test('an unknown route answers 404 NOT_FOUND', async () => {
    expectEnvelope(await request(ctx.app).get('/core/v1/no-such-thing').set(v1), 404, 'NOT_FOUND');
    expectEnvelope(await request(ctx.app).get('/elsewhere'), 404, 'NOT_FOUND');
  });

  test('an unknown method answers 405 METHOD_NOT_ALLOWED', async () => {
    expectEnvelope(await request(ctx.app).delete('/core/v1/tenants').set(v1), 405, 'METHOD_NOT_ALLOWED');
  });

  test('an unexpected failure answers 500 with a request id, and the cause is logged but not returned', async () => {
    const { accessToken } = await signIn(ctx.services, user.id);
    const res = await request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${accessToken}`);
    expectEnvelope(res, 500, 'INTERNAL_SERVER_ERROR');
    expect(res.body.error.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(ctx.logs.some((line) => line.includes(res.body.error.requestId) && line.includes('boom'))).toBe(true);
  });
});

describe('operations not built yet', () => {
  test('answer 501 NOT_IMPLEMENTED in the envelope', async () => {
    const res = await request(ctx.app)
      .get('/core/v1/groups')
      .set(v1)
      .set('cosafe-tenant-id', String(tenantA))
      .set('authorization', `Bearer ${token}`);
    if (res.status === 501) expectEnvelope(res, 501, 'NOT_IMPLEMENTED');
    else expect(res.status).toBe(200);
  });
});
