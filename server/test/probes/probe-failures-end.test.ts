// A probe with the right password ends the identity's failures only when the sign-in that follows needs nothing
// more (probes.service.ts: `complete`): an account with a second factor keeps its count, since the password alone
// signs nobody in there.
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
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
