import request from 'supertest';
import { startSession, startSsoSession } from '../../src/modules/sessions';
import { refreshSession as rotate } from '../../src/modules/sessions/sessions.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { movableClock, passwordSession, refreshSession } from '../support/sign-in';
import { watchedDb } from '../support/watched-db';

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

/** The test database, counting the statements sent through it (test/support/watched-db.ts). */
const watched = (after?: (statement: number) => Promise<void>) => watchedDb(ctx.services.db, after);

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

describe('every refusal says why, in the order the contract gives', () => {
  const refusal = async (id: string, token: string) => {
    const res = await refresh(id, token);
    expect(res.status).toBe(401);
    return { code: res.body.error.code, message: res.body.error.message };
  };

  test('an unknown session id is named first, whatever the token', async () => {
    const unknown = '5d0c7f4e-8a31-4b6e-9f0a-2c7d1e3b4a59';
    expect(await refusal(unknown, 'rt_' + 'y'.repeat(43))).toEqual({
      code: 'INVALID_SESSION_ID',
      message: 'Unknown session',
    });
    const s = await newSession();
    expect(await refusal(unknown, s.refreshToken)).toEqual({ code: 'INVALID_SESSION_ID', message: 'Unknown session' });
  });

  test('a token never issued, and one of the wrong form, are refused as not valid', async () => {
    const s = await newSession();
    const notValid = { code: 'INVALID_REFRESH_TOKEN', message: 'The refresh token is not valid' };
    expect(await refusal(s.id, 'rt_' + 'z'.repeat(43))).toEqual(notValid);
    expect(await refusal(s.id, 'not-a-refresh-token')).toEqual(notValid);
  });

  test('a token of the wrong form is refused before the database is asked', async () => {
    const asked: string[] = [];
    const db = new Proxy(ctx.services.db, {
      get(target, name) {
        asked.push(String(name));
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const s = await newSession();
    await expect(
      rotate({ ...ctx.services, db }, { sessionId: s.id, refreshToken: 'jwt.not.ours' }),
    ).rejects.toMatchObject({ code: 'INVALID_REFRESH_TOKEN', message: 'The refresh token is not valid' });
    expect(asked).toEqual([]);
  });

  test('a superseded token presented again is refused as not valid, and the revocation is logged with the session', async () => {
    const s = await newSession();
    await refresh(s.id, s.refreshToken);
    clock.advance(11_000);
    expect(await refusal(s.id, s.refreshToken)).toEqual({
      code: 'INVALID_REFRESH_TOKEN',
      message: 'The refresh token is not valid',
    });
    const logged = ctx.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        sessionId: s.id,
        msg: 'superseded refresh token presented: session revoked',
      }),
    );
  });

  test('an expired session: the refresh token has expired', async () => {
    const s = await newSession();
    clock.advance(366 * 86_400_000);
    expect(await refusal(s.id, s.refreshToken)).toEqual({
      code: 'EXPIRED_REFRESH_TOKEN',
      message: 'The refresh token has expired',
    });
  });

  test('a session signed out has ended, and says so still once its refresh token would have expired', async () => {
    const s = await newSession();
    const out = await request(ctx.app)
      .delete(`/core/v1/sessions/${s.id}`)
      .set(v1)
      .set('authorization', `Bearer ${s.accessToken}`);
    expect(out.status).toBe(204);
    const ended = { code: 'INVALID_SESSION', message: 'The session has ended' };
    expect(await refusal(s.id, s.refreshToken)).toEqual(ended);
    clock.advance(366 * 86_400_000);
    expect(await refusal(s.id, s.refreshToken)).toEqual(ended);
  });

  test('a session waiting for its second factor, or for its identity provider, cannot be refreshed', async () => {
    const waiting = { code: 'INVALID_SESSION', message: 'A session waiting for its second factor cannot be refreshed' };
    const tenant = await insertTenant(ctx.services);
    const user = await insertUser(ctx.services, { tenants: [tenant] });
    const otp = await startSession(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
    expect(await refusal(otp.id, otp.refreshToken)).toEqual(waiting);
    const sso = await startSsoSession(ctx.services, tenant, { oidc: 'unverified' });
    expect(await refusal(sso.id, sso.refreshToken)).toEqual(waiting);
    // A session bound to no user is refused even if its factor read verified: only the provider's answer binds one.
    await ctx.services.db
      .updateTable('sessions')
      .set({ factors: JSON.stringify({ oidc: 'verified' }) })
      .where('id', '=', sso.id)
      .execute();
    expect(await refusal(sso.id, sso.refreshToken)).toEqual(waiting);
  });

  test('the current token whose rotation lost a race to a change of the session is refused, and no unwritten token is handed out', async () => {
    // The rotation finds the session waiting for its second factor; before the fallback reads it, the factor is
    // answered. The session now looks refreshable with this very token, but nothing was written for it.
    const tenant = await insertTenant(ctx.services);
    const user = await insertUser(ctx.services, { tenants: [tenant] });
    const s = await startSession(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
    const { db, sent } = watched(async (statement) => {
      if (statement === 1)
        await ctx.services.db
          .updateTable('sessions')
          .set({ factors: JSON.stringify({ password: 'verified', otpEmail: 'verified' }) })
          .where('id', '=', s.id)
          .execute();
    });
    await expect(
      rotate({ ...ctx.services, db }, { sessionId: s.id, refreshToken: s.refreshToken }),
    ).rejects.toMatchObject({ code: 'INVALID_SESSION', message: 'The session has ended' });
    expect(sent.statements).toBe(2);
    // The token is still the chain's current one: asked again, it rotates.
    expect((await refresh(s.id, s.refreshToken)).status).toBe(200);
  });
});

describe('the cost and the edge of a refresh', () => {
  test('a rotation of the current token is one statement', async () => {
    const s = await newSession();
    const { db, sent } = watched();
    const body = await rotate({ ...ctx.services, db }, { sessionId: s.id, refreshToken: s.refreshToken });
    expect(body.id).toBe(s.id);
    expect(sent.statements).toBe(1);
  });

  test('a session is refreshable until the instant it expires, and at that instant its refresh token has expired', async () => {
    const s = await newSession();
    const { expires_at } = await ctx.services.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    const at = (instant: number) => ({ ...ctx.services, now: () => new Date(instant) });
    await expect(
      rotate(at(expires_at.getTime()), { sessionId: s.id, refreshToken: s.refreshToken }),
    ).rejects.toMatchObject({ code: 'EXPIRED_REFRESH_TOKEN' });
    const before = await rotate(at(expires_at.getTime() - 1), { sessionId: s.id, refreshToken: s.refreshToken });
    expect(before.id).toBe(s.id);
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
