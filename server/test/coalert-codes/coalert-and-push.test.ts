import request from 'supertest';
import { keyedHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function insertCoalertCode(code: string, usageLimit: number) {
  const user = await insertUser(ctx.services, { tenants: [await insertTenant(ctx.services)] });
  await ctx.services.db
    .insertInto('coalert_codes')
    .values({
      code_hash: keyedHash(ctx.services.secretKey, `coalert\0${code}`),
      user_id: user.id,
      usage_limit: usageLimit,
    })
    .execute();
  return user;
}
const withCode = (code: string) =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'coAlertCode', code });

describe('POST /core/v1/sessions (grantType coAlertCode)', () => {
  test('a valid code creates a session with the coalert factor verified', async () => {
    await insertCoalertCode('K7P2-9QX4', 5);
    const res = await withCode('k7p2-9qx4');
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ coalert: 'verified' });
  });

  test('past its usage limit answers 403 COALERT_CODE_USAGE_LIMIT_REACHED', async () => {
    await insertCoalertCode('ONCE-ONLY', 1);
    expect((await withCode('ONCE-ONLY')).status).toBe(201);
    const res = await withCode('ONCE-ONLY');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('COALERT_CODE_USAGE_LIMIT_REACHED');
  });

  test('concurrent uses never exceed the limit', async () => {
    await insertCoalertCode('RACE-CODE', 3);
    const results = await Promise.all(Array.from({ length: 8 }, () => withCode('RACE-CODE')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
  });

  test('an unknown code answers 401 INVALID_CREDENTIALS', async () => {
    expect((await withCode('NOPE-NOPE')).body.error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('PUT and DELETE /core/v1/push-tokens/{id}', () => {
  test("registers, updates and removes the caller's device token", async () => {
    const user = await insertUser(ctx.services);
    const { accessToken } = await signIn(ctx.services, user.id);
    const put = (body: object) =>
      request(ctx.app)
        .put('/core/v1/push-tokens/fcm:device-token-1')
        .set(v1)
        .set('authorization', `Bearer ${accessToken}`)
        .send(body);
    const first = await put({ type: 'android', appVersion: '5.2.0' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: 'fcm:device-token-1',
      type: 'android',
      appVersion: '5.2.0',
      updatedAt: expect.any(String),
    });
    expect((await put({ type: 'android', appVersion: '5.3.0' })).body.appVersion).toBe('5.3.0');
    expect(
      await ctx.services.db.selectFrom('push_tokens').selectAll().where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);
    const del = () =>
      request(ctx.app)
        .delete('/core/v1/push-tokens/fcm:device-token-1')
        .set(v1)
        .set('authorization', `Bearer ${accessToken}`);
    expect((await del()).status).toBe(204);
    expect((await del()).status).toBe(404);
  });

  test('a type outside ios, android, desktop answers 400', async () => {
    const user = await insertUser(ctx.services);
    const { accessToken } = await signIn(ctx.services, user.id);
    const res = await request(ctx.app)
      .put('/core/v1/push-tokens/t1')
      .set(v1)
      .set('authorization', `Bearer ${accessToken}`)
      .send({ type: 'pager', appVersion: '1' });
    expect(res.status).toBe(400);
  });

  test('another user cannot delete my token', async () => {
    const me = await insertUser(ctx.services);
    const them = await insertUser(ctx.services);
    const mine = await signIn(ctx.services, me.id);
    const theirs = await signIn(ctx.services, them.id);
    await request(ctx.app)
      .put('/core/v1/push-tokens/shared-device')
      .set(v1)
      .set('authorization', `Bearer ${mine.accessToken}`)
      .send({ type: 'ios', appVersion: '1.0' });
    expect(
      (
        await request(ctx.app)
          .delete('/core/v1/push-tokens/shared-device')
          .set(v1)
          .set('authorization', `Bearer ${theirs.accessToken}`)
      ).status,
    ).toBe(404);
  });
});

describe('deactivated users', () => {
  test('a coAlert code of a user deactivated by the directory answers 401 INVALID_CREDENTIALS', async () => {
    const user = await insertCoalertCode('GONE-USER', 5);
    await ctx.services.db.updateTable('users').set({ deactivated_at: new Date() }).where('id', '=', user.id).execute();
    expect((await withCode('GONE-USER')).body.error.code).toBe('INVALID_CREDENTIALS');
  });
});
