// Sessions keep where they signed in from (issue 44) at no extra statement: the user agent and the coarse network are
// columns of the rows the sign-in statements write anyway. The figures: a password sign-in after the sign-in app's
// probe is one statement, without a probe (argon2 decides) two, as before this was recorded.
import { probeHash } from '../../src/modules/sessions';
import { emailHash } from '../../src/security/hashing';
import { createPasswordSession } from '../../src/modules/sessions/sessions.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';
import { watchedDb } from '../support/watched-db';
import { firefoxOnWindows, freshIpv4 } from './support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const client = { region: 'eu-north-1', userAgent: firefoxOnWindows, network: '203.0.113.0/24' };

async function signInCost(probeFirst: boolean) {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
  const ip = freshIpv4();
  if (probeFirst) {
    await probeHash(ctx.services, { hash: emailHash(user.email), password: goodPassword, ip });
  }
  const { db, sent } = watchedDb(ctx.services.db);
  const input = { email: user.email, password: goodPassword, ip, event: { client, method: 'password' as const } };
  const session = await createPasswordSession({ ...ctx.services, db }, input);
  const row = await ctx.services.db
    .selectFrom('sessions')
    .select(['user_agent', 'network'])
    .where('id', '=', session.id)
    .executeTakeFirstOrThrow();
  return { statements: sent.statements, row };
}

test('a password sign-in after the probe is one statement, and writes the device and network with the session', async () => {
  const { statements, row } = await signInCost(true);
  expect(statements).toBe(1);
  expect(row).toEqual({ user_agent: firefoxOnWindows, network: '203.0.113.0/24' });
});

test('a password sign-in without a probe is two statements (the sign-in statement reserves the attempt; argon2; the session with the attempt given back), the same columns written', async () => {
  const { statements, row } = await signInCost(false);
  expect(statements).toBe(2);
  expect(row).toEqual({ user_agent: firefoxOnWindows, network: '203.0.113.0/24' });
});
