// Attack: a client writes its own X-Forwarded-For to get a fresh address (and a fresh per-address limit) on every
// request. TRUST_PROXY names how many proxies, or which proxy addresses, stand in front of the service; never
// "trust everything".
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config';
import { policies } from '../../src/security/throttle';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';

const probe = (ctx: TestContext, forwardedFor: string) =>
  request(ctx.app).get('/core/v1/probes/idpDomain/example.test').set(v1).set('x-forwarded-for', forwardedFor);

/** Spends the per-address probe limit of `address` with a different spoofed left-most entry on every request. */
async function exhaust(ctx: TestContext, address: string) {
  const statuses: number[] = [];
  for (let i = 0; i <= policies.probePerAddress.limit; i++)
    statuses.push((await probe(ctx, `198.51.100.${i % 250}, 203.0.113.${i % 250}, ${address}`)).status);
  return statuses;
}

describe('TRUST_PROXY configuration', () => {
  test('TRUST_PROXY=true is refused with a message saying what to give instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true would trust any X-Forwarded-For a client writes; give the hop count .* or the trusted proxy addresses/,
    );
  });

  test.each(['yes', '-1', '1.5', '10.0.0.0/33', '10.0.0.1,not-an-address'])('TRUST_PROXY=%j is refused', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  test('a hop count, a list of addresses and CIDRs, or nothing are accepted', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.10 ,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.10',
      '::1',
    ]);
    expect(loadConfig({}).trustProxy).toBe(0);
  });
});

describe('a spoofed X-Forwarded-For does not change the address the per-address limits use', () => {
  let ctx: TestContext;
  afterEach(() => ctx.close());

  test('behind one proxy (hop count 1), changing the left-most entries still hits the limit of the real address', async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
    const statuses = await exhaust(ctx, '192.0.2.7');
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another client behind the same proxy has its own limit.
    expect((await probe(ctx, '192.0.2.8')).status).toBe(200);
  });

  test('behind a trusted proxy address (the loopback proxy), only the entry the proxy added counts', async () => {
    ctx = await createTestContext({ env: { TRUST_PROXY: '127.0.0.1' } });
    const statuses = await exhaust(ctx, '192.0.2.9');
    expect(statuses.at(-1)).toBe(429);
    expect((await probe(ctx, 'spoofed, 192.0.2.10')).status).toBe(200);
    expect((await probe(ctx, 'another-spoof, 192.0.2.9')).status).toBe(429);
  });

  test('with no proxy configured, X-Forwarded-For is ignored: the connection address is the client', async () => {
    ctx = await createTestContext();
    const statuses: number[] = [];
    for (let i = 0; i <= policies.probePerAddress.limit; i++)
      statuses.push((await probe(ctx, `192.0.2.${i % 250}`)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
