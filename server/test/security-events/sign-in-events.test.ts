// Each sign-in kind leaves its security event, in the statement that writes the session where there is one, with a
// coarse client; and what a successful sign-in costs in statements.
import { roundTrips } from '../../src/db/prepared';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, passwordLogin, probeRightPassword } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  // Behind one proxy: the tests name their client addresses in X-Forwarded-For.
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

let next = 10;
/** A fresh address per scenario, so scenarios share no per-address counters. */
const address = () => `198.51.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const wrong = 'Wrong-Password-1!';

async function member() {
  return insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
}

const eventsOf = (userId: number) =>
  ctx.services.db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();

/** The statements a request costs (each one round trip to the database). */
async function statements<T>(run: () => Promise<T>): Promise<{ result: T; count: number }> {
  const before = roundTrips.count;
  const result = await run();
  return { result, count: roundTrips.count - before };
}

describe('sign-in events', () => {
  test('sign_in_succeeded: a password sign-in records the account, method, network /24 and user agent', async () => {
    const user = await member();
    const res = await passwordLogin(ctx, user.email, goodPassword, '203.0.113.77').set('user-agent', 'TestAgent/1.0');
    expect(res.status).toBe(201);
    const [event, ...rest] = await eventsOf(user.id);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      kind: 'sign_in_succeeded',
      outcome: 'succeeded',
      user_id: user.id,
      tenant_id: null,
      actor_type: 'self',
      actor_user_id: user.id,
      region: ctx.services.config.region,
      network: '203.0.113.0/24',
      user_agent: 'TestAgent/1.0',
      details: { method: 'password' },
    });
  });

  test('sign_in_succeeded after a probe: the one-statement sign-in writes its event in that statement', async () => {
    const user = await member();
    const ip = address();
    expect((await probeRightPassword(ctx, user.email, ip)).status).toBe(200);
    const { result, count } = await statements(() => passwordLogin(ctx, user.email, goodPassword, ip));
    expect(result.status).toBe(201);
    expect(count).toBe(1);
    expect((await eventsOf(user.id)).map((e) => e.kind)).toEqual(['sign_in_succeeded']);
  });

  test('sign_in_failed: a wrong password for a known account, never the password itself', async () => {
    const user = await member();
    const res = await passwordLogin(ctx, user.email, wrong, address());
    expect(res.status).toBe(401);
    const events = await eventsOf(user.id);
    expect(events.map((e) => [e.kind, e.outcome])).toEqual([['sign_in_failed', 'failed']]);
    expect(JSON.stringify(events)).not.toContain(wrong);
  });

  test('an unknown account leaves no event (nobody to attribute it to)', async () => {
    const before = await ctx.services.db
      .selectFrom('security_events')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await passwordLogin(ctx, 'nobody-here@example.test', wrong, address())).status).toBe(401);
    const after = await ctx.services.db
      .selectFrom('security_events')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  test('sign_in_locked_out: a refused attempt is recorded once per account per quarter hour, not per retry', async () => {
    const user = await member();
    const attacker = address();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await passwordLogin(ctx, user.email, wrong, attacker)).status);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    const kinds = (await eventsOf(user.id)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'sign_in_locked_out')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'sign_in_failed').length).toBeGreaterThanOrEqual(5);
    const [locked] = (await eventsOf(user.id)).filter((e) => e.kind === 'sign_in_locked_out');
    expect(locked).toMatchObject({ outcome: 'refused', details: { method: 'password' } });
  });

  test('sign_in_stepped_up: the right password at the account ceiling from a new network waits for an emailed code', async () => {
    const user = await member();
    for (let i = 0; i < 30; i++) await passwordLogin(ctx, user.email, wrong, address());
    const res = await passwordLogin(ctx, user.email, goodPassword, address());
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    const kinds = (await eventsOf(user.id)).map((e) => e.kind);
    expect(kinds[kinds.length - 1]).toBe('sign_in_stepped_up');
    expect(kinds).not.toContain('sign_in_succeeded');
  });

  test("statements per sign-in: a success costs none more (1 after a probe, 2 with argon2), a known account's failure one more (2), an unknown account's none (1)", async () => {
    // Measured before events were written: 1, 2, 1 and 1.
    const user = await member();
    const ip = address();
    await probeRightPassword(ctx, user.email, ip);
    expect((await statements(() => passwordLogin(ctx, user.email, goodPassword, ip))).count).toBe(1);
    expect((await statements(() => passwordLogin(ctx, user.email, goodPassword, address()))).count).toBe(2);
    expect((await statements(() => passwordLogin(ctx, user.email, wrong, address()))).count).toBe(2);
    expect((await statements(() => passwordLogin(ctx, 'no-one@example.test', wrong, address()))).count).toBe(1);
  });
});
