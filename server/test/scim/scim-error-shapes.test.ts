// SCIM errors in SCIM's shape for every status (RFC 7644 section 3.12), whoever answers: the validator (405 with
// Allow, RFC 9110 section 15.5.6), the body limit (413), a throttle (429), the HTTP parser (431), the in-flight
// admission control at the door (503). Content-Type application/scim+json on every SCIM answer
// (RFC 7644 section 3.1).
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { tooManyRequests } from '../../src/errors';
import { createHttpServer } from '../../src/http/server';
import { createLogger } from '../../src/logger';
import { errorShapes } from '../../src/modules/registry';
import type { TestContext } from '../support/context';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { scim, scimBase, scimKey } from '../support/scim-client';

const errorUrn = 'urn:ietf:params:scim:api:messages:2.0:Error';

function expectScimError(res: { status: number; headers: Record<string, string>; body: unknown }, status: number) {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
    status,
    type: expect.stringMatching(/^application\/scim\+json/),
  });
  expect(res.body).toEqual({ schemas: [errorUrn], status: String(status), detail: expect.any(String) });
}

let release: () => void = () => undefined;
let held = Promise.resolve();
let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createSsoTestContext({
    env: { BODY_LIMIT: '10kb' },
    handlers: (handlers) => ({
      ...handlers,
      // The configuration waits while `held` is pending (to fill the in-flight bound); the list is throttled.
      getScimServiceProviderConfig: async (c) => {
        await held;
        return handlers.getScimServiceProviderConfig(c as never);
      },
      listScimGroups: async () => {
        throw tooManyRequests(new Date(Date.now() + 30_000));
      },
    }),
  });
  key = await scimKey(ctx, await ssoTenant(ctx.services, 'oidc'));
});
afterAll(() => ctx.close());

describe('SCIM error shapes: RFC 7644 section 3.12', () => {
  test('405 on a SCIM path carries Allow and is a SCIM error', async () => {
    const res = await scim(ctx, key).delete('/Users');
    expectScimError(res, 405);
    expect(res.headers.allow).toBe('GET, POST');
    const one = await scim(ctx, key).post('/Users/1', {});
    expectScimError(one, 405);
    expect(one.headers.allow).toBe('GET, PUT, PATCH, DELETE');
  });

  test('413 for a body over the limit is a SCIM error', async () => {
    const res = await scim(ctx, key).post('/Users', { userName: 'big@example.test', title: 'x'.repeat(20_000) });
    expectScimError(res, 413);
  });

  test('429 is a SCIM error with Retry-After', async () => {
    const res = await scim(ctx, key).get('/Groups');
    expectScimError(res, 429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(25);
  });
});

describe('SCIM error shapes before the app: RFC 7644 section 3.12', () => {
  test('431 for headers too large is a SCIM error on SCIM paths, the platform envelope elsewhere under /core; elsewhere what Node.js answers', async () => {
    const server = createHttpServer(ctx.app, ctx.config.runtime, { logger: createLogger('silent'), errorShapes });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const send = (path: string) =>
      new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
        );
        socket.on('data', (chunk) => (received += chunk));
        socket.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
        socket.on('close', () => resolve(received));
      });
    try {
      const answer = await send(`${scimBase}/Users?filter=x`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/\r\nContent-Type: application\/scim\+json\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        schemas: [errorUrn],
        status: '431',
        detail: expect.any(String),
      });
      const platform = await send('/core/v1/tenants');
      expect(platform).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
      expect(JSON.parse(platform.slice(platform.indexOf('\r\n\r\n') + 4))).toMatchObject({
        status: 'error',
        error: { httpStatus: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' },
      });
      expect(await send('/healthz')).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('503 refused by admission control is a SCIM error with Retry-After on SCIM paths; elsewhere the platform envelope', async () => {
    // One slot, no queue: while one request is held, the next of every class is refused at the door.
    const runtime = { ...ctx.config.runtime, minInFlight: 1, maxInFlight: 1, maxQueued: 0 };
    const server = createHttpServer(ctx.app, runtime, { logger: createLogger('silent'), errorShapes });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const auth = { authorization: `Bearer ${key}` };
    let open = () => undefined as void;
    held = new Promise<void>((resolve) => (open = resolve));
    release = open;
    try {
      const first = fetch(`${base}${scimBase}/ServiceProviderConfig`, { headers: auth });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const shed = await fetch(`${base}${scimBase}/Users`, { headers: auth });
      const platform = await fetch(`${base}/core/v1/tenants`, {
        headers: { 'cosafe-core-api-version': '1', authorization: 'Bearer x' },
      });
      release();
      expect((await first).status).toBe(200);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(await shed.json()).toEqual({ schemas: [errorUrn], status: '503', detail: expect.any(String) });
      expect(platform.status).toBe(503);
      expect(platform.headers.get('retry-after')).toBe('1');
      expect(await platform.json()).toMatchObject({ status: 'error', error: { code: 'SERVICE_UNAVAILABLE' } });
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
