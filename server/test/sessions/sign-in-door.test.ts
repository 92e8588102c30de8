// What the sign-in handler does around the grant it dispatches to: each attempt counted by method and outcome
// (core_sign_in_total), a refusal for too many attempts counted as a lockout (core_lockouts_total), a failure that
// is not the API's own counted as an internal error and passed on unchanged, a grant the contract would never let
// through refused with its reason rather than left unanswered, and a grant-type header (which the door admitted
// the request by) that is not the body's grant refused, saying which.
import type { Request } from 'express';
import { tooManyRequests } from '../../src/errors';
import { lockouts, signInOutcomes } from '../../src/metrics/metrics';
import { sessionsHandlers, type PasskeySignIn, type SsoSignIn } from '../../src/modules/sessions';
import { createTestContext, type TestContext } from '../support/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const fault = new Error('identity provider unreachable');
const refused = tooManyRequests(new Date(Date.now() + 60_000));
const ways = {
  sso: { createSession: async () => Promise.reject(fault) } as unknown as SsoSignIn<TestContext['services']>,
  passkey: { createSession: async () => Promise.reject(refused) } as unknown as PasskeySignIn<TestContext['services']>,
};
const requestWith = (headers: Record<string, string>) =>
  ({ ip: '127.0.0.1', headers, socket: {} }) as unknown as Request;
const req = requestWith({});
const counted = async (method: string, outcome: string) =>
  (await signInOutcomes.get()).values.find((v) => v.labels.method === method && v.labels.outcome === outcome)?.value ??
  0;
const lockedOut = async (kind: string) => (await lockouts.get()).values.find((v) => v.labels.kind === kind)?.value ?? 0;
const createSession = (body: unknown, request = req) =>
  sessionsHandlers(ctx.services, ways).createSession({ body, req: request } as never) as Promise<unknown>;

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

test('a refusal for too many attempts is counted as a lockout of the grant it refused, and as that outcome', async () => {
  const [before, outcomeBefore, otherBefore] = [
    await lockedOut('passkey'),
    await counted('passkey', 'too_many_requests'),
    await lockedOut('sso'),
  ];
  await expect(createSession({ grantType: 'passkey', credential: {} })).rejects.toBe(refused);
  expect(await lockedOut('passkey')).toBe(before + 1);
  expect(await counted('passkey', 'too_many_requests')).toBe(outcomeBefore + 1);
  // Any other refusal is no lockout.
  await expect(createSession({ grantType: 'sso', email: 'anna@example.test' })).rejects.toBe(fault);
  expect(await lockedOut('sso')).toBe(otherBefore);
});

test("a grant-type header that is not the body's grant is refused before any sign-in, saying which", async () => {
  const attempts = async () => (await signInOutcomes.get()).values.reduce((sum, v) => sum + v.value, 0);
  const before = await attempts();
  await expect(
    createSession(
      { grantType: 'password', email: 'anna@example.test', password: 'Wrong-Password-1!' },
      requestWith({ 'cosafe-grant-type': 'passkey' }),
    ),
  ).rejects.toMatchObject({
    code: 'BAD_REQUEST',
    message: "cosafe-grant-type is not the body's grantType",
    issues: [{ where: 'header', path: 'cosafe-grant-type', message: "must equal the body's grantType (password)" }],
  });
  // Nothing was attempted (no outcome counted): neither the password nor the passkey the header named.
  expect(await attempts()).toBe(before);
  // The header that names the body's grant lets it through to that grant.
  await expect(
    createSession({ grantType: 'passkey', credential: {} }, requestWith({ 'cosafe-grant-type': 'passkey' })),
  ).rejects.toBe(refused);
});
