import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser, signIn, v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

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
