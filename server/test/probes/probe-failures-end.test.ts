// When a probe's right password ends the identity's failures: only when the sign-in that follows needs nothing more
// (the sessions module's probe: `complete`). An account with a second factor keeps its count, since the password
// alone signs nobody in there; and at the account-wide ceiling (loginPerAccount) the right password from an
// unfamiliar address is a step-up, not a finished sign-in: the probe answers that the account is here, but guessing
// from the next address is still refused.
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import { signInPolicies as policies } from '../../src/modules/sessions/lockout-keys';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const wrong = 'Wrong-Password-1!';
const probe = (hash: string, password: string, ip: string) =>
  request(ctx.app).post(`/core/v1/probes/hash/${hash}`).set(v1).set('x-forwarded-for', ip).send({ password });

test('the right password at the ceiling does not end the failures: the next wrong probe from elsewhere is still 429', async () => {
  const user = await insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
  const hash = emailHash(user.email);
  // One failure past the free ones, a few from each address so that no address pair locks first.
  for (let i = 0; i <= policies.loginPerAccount.freeFailures; i++)
    expect((await probe(hash, wrong, `10.8.${Math.floor(i / 4)}.1`)).status).toBe(200);
  expect((await probe(hash, wrong, '10.8.100.1')).status).toBe(429);
  const right = await probe(hash, goodPassword, '10.8.101.1');
  expect(right.status).toBe(200);
  expect(right.body.available).toBe(true);
  expect((await probe(hash, wrong, '10.8.102.1')).status).toBe(429);
});

/** Five wrong probes, the right one, then two wrong ones, all from one address: the statuses of the last two. */
async function afterTheRightPassword(otpEmail: boolean, ip: string): Promise<number[]> {
  const user = await insertUserWithPassword(ctx.services, { otpEmail, tenants: [await insertTenant(ctx.services)] });
  const hash = emailHash(user.email);
  for (let i = 0; i < 5; i++) expect((await probe(hash, wrong, ip)).body.available).toBe(false);
  const right = await probe(hash, goodPassword, ip);
  expect(right.status).toBe(200);
  expect(right.body.available).toBe(true);
  return [(await probe(hash, wrong, ip)).status, (await probe(hash, wrong, ip)).status];
}

test('the right password ends the failures of an account that needs nothing more: two more wrong probes answer', async () => {
  expect(await afterTheRightPassword(false, '10.7.0.1')).toEqual([200, 200]);
});

test('with a second factor the failures go on: the sixth wrong probe answers, the seventh is refused (429)', async () => {
  expect(await afterTheRightPassword(true, '10.7.0.2')).toEqual([200, 429]);
});
