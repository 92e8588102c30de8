// Shedding at the door: while the event loop runs late, new requests are answered 503 before the app sees them.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shedUnderPressure, type PressureGate } from '../../src/http/pressure';

const blockFor = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('shedding when the event loop is late', () => {
  let server: Server;
  let gate: PressureGate;
  let base: string;
  let seen = 0;

  beforeAll(async () => {
    gate = shedUnderPressure(
      (req, res) => {
        seen++;
        res.end(JSON.stringify({ path: req.url }));
      },
      { maxDelayMs: 100, sampleMs: 200, corsOrigins: ['http://sign-in.test'] },
    );
    server = http.createServer(gate.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    gate.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
  /** Two samples in a row come late: the loop is blocked, the sampler fires late, and blocked again past its next. */
  const overload = async () => {
    blockFor(400);
    await tick();
    blockFor(400);
    await tick();
    expect(gate.shedding()).toBe(true);
  };

  const settle = async () => {
    // Two samples on an idle loop: the delay falls back below the bound.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(gate.delayMs()).toBeLessThan(100);
  };

  test('an idle instance serves every request', async () => {
    await settle();
    const before = seen;
    const answer = await fetch(`${base}/core/v1/tenants`);
    expect(answer.status).toBe(200);
    expect(seen).toBe(before + 1);
  });

  test('after the loop was blocked past the bound, a request is answered 503 SERVICE_UNAVAILABLE with Retry-After, and the app never sees it', async () => {
    await settle();
    // The state holds until the next sample, 200 ms later.
    await overload();
    const before = seen;
    const answer = await fetch(`${base}/core/v1/tenants`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({
      status: 'error',
      error: expect.objectContaining({ httpStatus: 503, code: 'SERVICE_UNAVAILABLE' }),
    });
    expect(seen).toBe(before);
  });

  test('a shed answer to an allowed origin carries its CORS headers, so the browser can read it and its Retry-After', async () => {
    await settle();
    await overload();
    const allowed = await fetch(`${base}/core/v1/tenants`, { headers: { origin: 'http://sign-in.test' } });
    expect(allowed.status).toBe(503);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://sign-in.test');
    expect(allowed.headers.get('access-control-expose-headers')).toBe('retry-after');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const other = await fetch(`${base}/core/v1/tenants`, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(503);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("an allowed origin's preflight is not shed (without it the browser never sends the request)", async () => {
    await settle();
    await overload();
    const before = seen;
    const preflight = await fetch(`${base}/core/v1/tenants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://sign-in.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
    expect(seen).toBe(before + 1);
    const foreign = await fetch(`${base}/core/v1/tenants`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(503);
  });

  test('health checks and metrics are never shed', async () => {
    await settle();
    await overload();
    for (const path of ['/readyz', '/healthz', '/metrics?x=1'])
      expect((await fetch(`${base}${path}`)).status).toBe(200);
  });

  test('one long pause (a garbage collection, say) is not overload: nothing is shed', async () => {
    await settle();
    blockFor(400);
    await tick();
    expect(gate.delayMs()).toBeGreaterThan(100);
    expect(gate.shedding()).toBe(false);
    expect((await fetch(`${base}/core/v1/tenants`)).status).toBe(200);
  });

  test('once the loop is on time again, requests are served again', async () => {
    await overload();
    await settle();
    expect(gate.shedding()).toBe(false);
    expect((await fetch(`${base}/core/v1/tenants`)).status).toBe(200);
  });

  test('with the bound at 0 nothing is ever shed', async () => {
    const off = shedUnderPressure((_req, res) => res.end('ok'), { maxDelayMs: 0 });
    const plain = http.createServer(off.listener);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    blockFor(400);
    await tick();
    blockFor(400);
    await tick();
    expect(off.shedding()).toBe(false);
    const port = (plain.address() as AddressInfo).port;
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    off.stop();
    await new Promise((resolve) => plain.close(resolve));
  });
});
