// A request refused at the door by admission control is answered 503 with Retry-After; a browser may only read that
// answer (and its Retry-After) when it carries the CORS headers of an allowed origin. Without them the sign-in
// app sees a network failure and cannot tell the user that the region is busy, nor ask again.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpServer } from '../../src/http/server';
import { createTestContext, type TestContext } from '../support/context';

const SIGN_IN = 'http://sign-in.test';

describe('a request refused by admission control, from the sign-in app', () => {
  let ctx: TestContext;
  let server: Server;
  let base: string;
  let holder: Socket;

  beforeAll(async () => {
    ctx = await createTestContext({
      // One argon2-bound request at a time and none waiting: while one is held, the next is refused.
      env: { HASH_CONCURRENCY: '1', HASH_QUEUE: '0', CORS_ORIGINS: SIGN_IN },
    });
    server = createHttpServer(ctx.app, ctx.config.runtime, { corsOrigins: ctx.config.corsOrigins });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    // The one slot is held by a request whose body never finishes arriving.
    holder = await new Promise<Socket>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /core/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\ncosafe-core-api-version: 1\r\n' +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grantType":',
        );
        resolve(socket);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
  afterAll(async () => {
    holder.destroy();
    await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
    await ctx.close();
  });

  test('the 503 carries the allowed origin and exposes Retry-After', async () => {
    const answer = await fetch(`${base}/core/v1/probes/hash/${'a'.repeat(64)}`, {
      method: 'POST',
      headers: { origin: SIGN_IN, 'cosafe-core-api-version': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'x' }),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('access-control-allow-origin')).toBe(SIGN_IN);
    expect(answer.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('retry-after');
    expect(await answer.json()).toMatchObject({ status: 'error', error: { code: 'SERVICE_UNAVAILABLE' } });
  });

  test('another origin gets the 503 without CORS headers', async () => {
    const answer = await fetch(`${base}/core/v1/probes/hash/${'a'.repeat(64)}`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'cosafe-core-api-version': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'x' }),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("the browser's preflight is answered, not shed: it costs no work, and without it the request is never sent", async () => {
    const answer = await fetch(`${base}/core/v1/probes/hash/${'a'.repeat(64)}`, {
      method: 'OPTIONS',
      headers: {
        origin: SIGN_IN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,cosafe-core-api-version',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SIGN_IN);
  });
});
