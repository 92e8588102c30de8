// What the sign-in handler does around the grant it dispatches to: each attempt counted by method and outcome
// (core_sign_in_total), a failure that is not the API's own counted as an internal error and passed on unchanged,
// and a grant the contract would never let through refused with its reason rather than left unanswered.
import type { Request } from 'express';
import { signInOutcomes } from '../../src/metrics/metrics';
import { sessionsHandlers, type PasskeySignIn, type SsoSignIn } from '../../src/modules/sessions';
import { createTestContext, type TestContext } from '../support/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const fault = new Error('identity provider unreachable');
const ways = {
  sso: { createSession: async () => Promise.reject(fault) } as unknown as SsoSignIn<TestContext['services']>,
  passkey: { createSession: async () => Promise.reject(fault) } as unknown as PasskeySignIn<TestContext['services']>,
};
const req = { ip: '127.0.0.1', headers: {}, socket: {} } as unknown as Request;
const counted = async (method: string, outcome: string) =>
  (await signInOutcomes.get()).values.find((v) => v.labels.method === method && v.labels.outcome === outcome)?.value ??
  0;
const createSession = (body: unknown) =>
  sessionsHandlers(ctx.services, ways).createSession({ body, req } as never) as Promise<unknown>;

test('a failure that is not an API error is counted as an internal error and passed on as it is', async () => {
  const before = await counted('sso', 'internal_error');
  await expect(createSession({ grantType: 'sso', email: 'anna@example.test' })).rejects.toBe(fault);
  expect(await counted('sso', 'internal_error')).toBe(before + 1);
});

test("a refusal is counted under its own code, in lower case, and the grant's method", async () => {
  const before = await counted('coAlertCode', 'invalid_credentials');
  await expect(createSession({ grantType: 'coAlertCode', code: 'NOPE-NOPE' })).rejects.toMatchObject({
    code: 'INVALID_CREDENTIALS',
  });
  expect(await counted('coAlertCode', 'invalid_credentials')).toBe(before + 1);
});

test('a grant type the contract does not have is refused as a bad request that says so', async () => {
  await expect(createSession({ grantType: 'magicLink' })).rejects.toMatchObject({
    code: 'BAD_REQUEST',
    message: 'Unknown challenge',
  });
});
