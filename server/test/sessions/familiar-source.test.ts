// A complete sign-in makes its source familiar to the identity, and a familiar source is what keeps a user in when
// others push the account to its ceiling (keep-out): the right password from there still signs in completely, while
// from a new address it asks for an email code. Shown for both ways a password session is written, the one
// statement that starts it on a probe's proof and the insert after argon2, so the "complete" condition of each
// (the sessions module's repository) is held by behaviour, not only by the row it writes. A probe alone, though it
// checks the right password, makes no source familiar.
import { signInPolicies } from '../../src/modules/sessions/lockout-keys';
import { createTestContext, type TestContext } from '../support/context';
import { goodPassword, insertUserWithPassword, passwordLogin, probeRightPassword } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip: string) => passwordLogin(ctx, email, password, ip);
const probe = (email: string, ip: string) => probeRightPassword(ctx, email, ip);

test.each([
  ['after argon2', false, 20],
  ["on a probe's proof", true, 21],
])(
  'a complete sign-in (%s) keeps its address signing in completely at the ceiling; a new address steps up',
  async (_path, proofFirst, net) => {
    const user = await insertUserWithPassword(ctx.services);
    const home = `10.${net}.0.1`;
    if (proofFirst) expect((await probe(user.email, home)).body.available).toBe(true);
    const first = await login(user.email, goodPassword, home);
    expect(first.status).toBe(201);
    expect(first.body.factors).toEqual({ password: 'verified' });
    // The account pushed past its ceiling from elsewhere, a few guesses per address so no address locks first.
    for (let i = 0; i <= signInPolicies.loginPerAccount.freeFailures; i++)
      expect((await login(user.email, 'Wrong-Password-1!', `10.${net}.${1 + Math.floor(i / 4)}.1`)).status).toBe(401);
    // A new address steps up (and its pending session ends no failures); the familiar one signs in completely.
    const elsewhere = await login(user.email, goodPassword, `10.${net}.200.1`);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    if (proofFirst) expect((await probe(user.email, home)).body.available).toBe(true);
    const again = await login(user.email, goodPassword, home);
    expect(again.status).toBe(201);
    expect(again.body.factors).toEqual({ password: 'verified' });
  },
);

test('a probe alone, right password and all, does not make its address familiar: at the ceiling it steps up', async () => {
  const user = await insertUserWithPassword(ctx.services);
  const home = '10.22.0.1';
  expect((await probe(user.email, home)).body.available).toBe(true);
  for (let i = 0; i <= signInPolicies.loginPerAccount.freeFailures; i++)
    expect((await login(user.email, 'Wrong-Password-1!', `10.22.${1 + Math.floor(i / 4)}.1`)).status).toBe(401);
  const after = await login(user.email, goodPassword, home);
  expect(after.status).toBe(201);
  expect(after.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
});
