import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { movableClock, passwordSession, refreshSession } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
});
afterAll(() => ctx.close());

const newSession = () => passwordSession(ctx);
const refresh = (id: string, token: string) => refreshSession(ctx, id, token);
const useAccess = (session: { id: string }, accessToken: string) =>
  request(ctx.app)
    .post(`/core/v1/sessions/${session.id}/challenges`)
    .set(v1)
    .set('authorization', `Bearer ${accessToken}`)
    .send({ otpEmail: true });

describe('PUT /core/v1/sessions/{id}', () => {
  test('rotates: answers new access and refresh tokens for the same session', async () => {
    const s = await newSession();
    const res = await refresh(s.id, s.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(s.id);
    expect(res.body.refreshToken).not.toBe(s.refreshToken);
    expect(res.body.factors).toEqual({ password: 'verified' });
    expect((await refresh(s.id, res.body.refreshToken)).status).toBe(200);
  });

  test('two concurrent refreshes with the same token both succeed inside the grace window, with one chain', async () => {
    const s = await newSession();
    const [a, b] = await Promise.all([refresh(s.id, s.refreshToken), refresh(s.id, s.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    expect((await refresh(s.id, a.body.refreshToken)).status).toBe(200);
  });

  test('the replaced token still works for 10 seconds', async () => {
    const s = await newSession();
    await refresh(s.id, s.refreshToken);
    clock.advance(9_000);
    expect((await refresh(s.id, s.refreshToken)).status).toBe(200);
  });

  test('reusing a replaced token after the grace window revokes the whole session', async () => {
    const s = await newSession();
    const rotated = await refresh(s.id, s.refreshToken);
    clock.advance(11_000);
    const reuse = await refresh(s.id, s.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('INVALID_REFRESH_TOKEN');
    // Everything of that session is dead now, including the newest tokens.
    expect((await refresh(s.id, rotated.body.refreshToken)).body.error.code).toMatch(
      /INVALID_REFRESH_TOKEN|INVALID_SESSION/,
    );
    expect((await useAccess(s, rotated.body.accessToken)).body.error.code).toBe('INVALID_SESSION');
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select(['revoked_at', 'revoked_reason'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_reason).toBe('refresh_token_reuse');
  });

  test('an unknown session id answers 401 INVALID_SESSION_ID', async () => {
    const s = await newSession();
    const res = await refresh('9b7e2a56-1c1a-4f43-8a57-0f2b9d6f4e10', s.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION_ID');
  });

  test("another session's id answers 401 INVALID_SESSION_ID", async () => {
    const mine = await newSession();
    const theirs = await newSession();
    expect((await refresh(theirs.id, mine.refreshToken)).body.error.code).toBe('INVALID_SESSION_ID');
  });

  test('a token that was never issued answers 401 INVALID_REFRESH_TOKEN', async () => {
    const s = await newSession();
    expect((await refresh(s.id, 'rt_' + 'x'.repeat(43))).body.error.code).toBe('INVALID_REFRESH_TOKEN');
    expect((await refresh(s.id, 'not-a-refresh-token')).body.error.code).toBe('INVALID_REFRESH_TOKEN');
  });

  test('without a token answers 401 UNAUTHORIZED, with a malformed header INVALID_AUTHORIZATION_HEADER', async () => {
    const s = await newSession();
    expect((await request(ctx.app).put(`/core/v1/sessions/${s.id}`).set(v1)).body.error.code).toBe('UNAUTHORIZED');
    expect(
      (await request(ctx.app).put(`/core/v1/sessions/${s.id}`).set(v1).set('authorization', s.refreshToken)).body.error
        .code,
    ).toBe('INVALID_AUTHORIZATION_HEADER');
  });

  test('a session not refreshed for 365 days answers 401 EXPIRED_REFRESH_TOKEN; refreshing slides the expiry', async () => {
    const s = await newSession();
    clock.advance(300 * 86_400_000);
    const slid = await refresh(s.id, s.refreshToken);
    expect(slid.status).toBe(200);
    clock.advance(300 * 86_400_000);
    const again = await refresh(s.id, slid.body.refreshToken);
    expect(again.status).toBe(200);
    clock.advance(366 * 86_400_000);
    const res = await refresh(s.id, again.body.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('EXPIRED_REFRESH_TOKEN');
  });
});

describe('DELETE /core/v1/sessions/{id}', () => {
  test('logs out: the access token and the refresh token stop working at once', async () => {
    const s = await newSession();
    expect(
      (
        await request(ctx.app)
          .delete(`/core/v1/sessions/${s.id}`)
          .set(v1)
          .set('authorization', `Bearer ${s.accessToken}`)
      ).status,
    ).toBe(204);
    expect((await refresh(s.id, s.refreshToken)).status).toBe(401);
    expect((await useAccess(s, s.accessToken)).body.error.code).toBe('INVALID_SESSION');
  });

  test("another user's session answers 401 INVALID_SESSION_ID and stays alive", async () => {
    const mine = await newSession();
    const theirs = await newSession();
    const res = await request(ctx.app)
      .delete(`/core/v1/sessions/${theirs.id}`)
      .set(v1)
      .set('authorization', `Bearer ${mine.accessToken}`);
    expect(res.body.error.code).toBe('INVALID_SESSION_ID');
    expect((await refresh(theirs.id, theirs.refreshToken)).status).toBe(200);
  });
});
