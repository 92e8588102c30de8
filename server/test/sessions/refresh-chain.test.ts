// Attacks on the refresh chain: forking a session with a superseded token, and the cost of a long history.
import { roundTrips } from '../../src/db/prepared';
import { createTestContext, type TestContext } from '../support/context';
import { movableClock, passwordSession, refreshSession } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
});
afterAll(() => ctx.close());

const newSession = () => passwordSession(ctx);
const refresh = (id: string, token: string) => refreshSession(ctx, id, token);

describe('attack: forking a session with a superseded refresh token', () => {
  test('a token two rotations back, inside the grace window, revokes the session instead of minting a second chain', async () => {
    const s = await newSession();
    const r1 = (await refresh(s.id, s.refreshToken)).body.refreshToken as string;
    const r2 = (await refresh(s.id, r1)).body.refreshToken as string;
    const fork = await refresh(s.id, s.refreshToken);
    expect(fork.status).toBe(401);
    expect(fork.body.error.code).toBe('INVALID_REFRESH_TOKEN');
    // The whole session is gone, the newest token too.
    expect((await refresh(s.id, r2)).status).toBe(401);
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_reason).toBe('refresh_token_reuse');
  });

  test('the immediate predecessor inside the grace window yields the current token, not a second live one', async () => {
    const s = await newSession();
    const r1 = (await refresh(s.id, s.refreshToken)).body.refreshToken as string;
    clock.advance(5_000);
    const again = await refresh(s.id, s.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body.refreshToken).toBe(r1);
    // 12 s later only the current token works; the predecessor has expired its grace and revokes if used.
    clock.advance(12_000);
    const next = await refresh(s.id, r1);
    expect(next.status).toBe(200);
  });

  test('two concurrent refreshes of one token both succeed and leave exactly one live token', async () => {
    const s = await newSession();
    const [a, b] = await Promise.all([refresh(s.id, s.refreshToken), refresh(s.id, s.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    clock.advance(11_000);
    expect((await refresh(s.id, a.body.refreshToken)).status).toBe(200);
  });
});

describe('attack: slowing rotations down by growing a session history', () => {
  test('a rotation makes at most 2 round trips, however often the session has rotated', async () => {
    const s = await newSession();
    let token = s.refreshToken;
    for (let i = 0; i < 30; i++) token = (await refresh(s.id, token)).body.refreshToken;
    const before = roundTrips.count;
    const res = await refresh(s.id, token);
    expect(res.status).toBe(200);
    expect(roundTrips.count - before).toBeLessThanOrEqual(2);
  });
});
