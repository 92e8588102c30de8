// The per-address limits outside the password sign-in (the sso grant, the identity-provider domain probe, password
// reset requests and password-link tokens) count an IPv6 client by its network prefix, as the sign-in's do: one /64
// hands its devices as many addresses as they like, so keying on the full address was no limit at all. Requests
// come through a trusted loopback proxy that names the client in X-Forwarded-For.
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import { policies } from '../../src/security/throttle';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '127.0.0.1,::1' } });
});
afterAll(() => ctx.close());

/** The n-th address inside the /64 `network` (four groups). */
const inNetwork = (network: string, n: number) => `${network}:${(n + 1).toString(16)}:0:0:${(n + 7).toString(16)}`;
const from = (ip: string) => ({ ...v1, 'x-forwarded-for': ip });

/** Sends `count` requests, each from a new address of `network`, and answers their statuses. */
async function spread(network: string, count: number, send: (ip: string) => Promise<{ status: number }>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await send(inNetwork(network, i))).status);
  return statuses;
}

describe('per-address limits key an IPv6 client by its /64', () => {
  test('password reset requests from many addresses of one /64 share one budget; another /64 has its own', async () => {
    const reset = (ip: string) =>
      request(ctx.app)
        .post('/core/v1/users/password-reset')
        .set(from(ip))
        .send({ emailHash: emailHash(`nobody-${ip}@example.test`) });
    const statuses = await spread('2001:db8:10:1', policies.passwordResetPerAddress.limit + 1, reset);
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await reset('2001:db8:10:2::1')).status).toBe(202);
  });

  test('identity-provider domain probes from many addresses of one /64 share one budget', async () => {
    const probe = (ip: string) => request(ctx.app).get('/core/v1/probes/idpDomain/example.com').set(from(ip));
    const statuses = await spread('2001:db8:11:1', policies.probePerAddress.limit + 1, probe);
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await probe('2001:db8:11:2::1')).status).toBe(200);
  });

  test('sso grants from many addresses of one /64 share one budget', async () => {
    const grant = (ip: string) =>
      request(ctx.app)
        .post('/core/v1/sessions')
        .set(from(ip))
        .send({ grantType: 'sso', email: 'someone@nowhere.example' });
    const statuses = await spread('2001:db8:12:1', policies.ssoGrantPerAddress.limit + 1, grant);
    expect(statuses.slice(0, -1).every((s) => s !== 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await grant('2001:db8:12:2::1')).status).not.toBe(429);
  });

  test('password-link tokens tried from many addresses of one /64 share one budget', async () => {
    const tryToken = (ip: string) =>
      request(ctx.app)
        .get('/core/v1/users/1/password-reset')
        .set({ ...from(ip), 'cosafe-password-token': 'a'.repeat(43) });
    const statuses = await spread('2001:db8:13:1', policies.passwordTokenPerAddress.limit + 1, tryToken);
    expect(statuses.slice(0, -1).every((s) => s !== 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await tryToken('2001:db8:13:2::1')).status).not.toBe(429);
  });
});
