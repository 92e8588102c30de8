// The server makes requests and responses with the app's prototypes (so Express's per-request setPrototypeOf
// changes nothing), and the per-request query bookkeeping adds no accessor of its own: both kept each request's
// objects alive through young-generation collections (see src/http/server.ts).
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { Request, Response } from 'express';
import { createHttpServer, withPrototype } from '../../src/http/server';
import { literalBracketParams } from '../../src/http/literal-bracket-params';
import { loadBundle } from '../../src/http/spec';
import { createTestContext, type TestContext } from '../support/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function listening(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

test('requests and responses arrive with the app prototypes, and the app answers through the server', async () => {
  const server = createHttpServer(ctx.app);
  const seen: [object | null, object | null][] = [];
  server.prependListener('request', (req, res) => seen.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]));
  const port = await listening(server);
  try {
    for (const path of ['/healthz', '/core/v1/tenants']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'cosafe-core-api-version': '1' } });
      const body = await res.json();
      if (path === '/healthz') expect(body).toEqual({ status: 'ok' });
      else expect(body).toMatchObject({ status: 'error', error: { httpStatus: 401 } });
    }
    expect(seen).toHaveLength(2);
    for (const [req, res] of seen) {
      expect(req).toBe(ctx.app.request);
      expect(res).toBe(ctx.app.response);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a request with a body still reaches the app whole (the server keeps the request stream intact)', async () => {
  const server = createHttpServer(ctx.app);
  const port = await listening(server);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/core/v1/sessions`, {
      method: 'POST',
      headers: { 'cosafe-core-api-version': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ grantType: 'password', email: 'nobody@demo.test', password: 'Wrong-password-1!' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 'error', error: { code: 'INVALID_CREDENTIALS' } });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('the matched operation is read through one getter shared by every request', () => {
  const middleware = literalBracketParams(loadBundle());
  const getters = [1, 2].map((n) => {
    const req = { query: { 'name[match]': `x${n}` }, openapi: { schema: { operationId: `op${n}`, parameters: [] } } } as unknown as Request;
    let error: unknown = 'not called';
    middleware(req, {} as Response, (e?: unknown) => void (error = e));
    expect(error).toBeUndefined();
    const descriptor = Object.getOwnPropertyDescriptor(req.query, '_openapi')!;
    expect(descriptor.enumerable).toBe(false);
    expect(Object.keys(req.query)).toEqual(['name[match]']);
    expect((req.query as { _openapi?: { schema: { operationId: string } } })._openapi?.schema.operationId).toBe(`op${n}`);
    return descriptor.get;
  });
  expect(getters[0]).toBe(getters[1]);
});

test('both forms of constructor build objects with the given prototype, initialised by the base', () => {
  function Plain(this: { made?: string }, value: string) {
    this.made = value;
  }
  class Modern {
    made: string;
    constructor(value: string) {
      this.made = value;
    }
  }
  for (const Base of [Plain as unknown as typeof Modern, Modern]) {
    const prototype = Object.create(Base.prototype, { extra: { value: () => 'from the prototype' } });
    const Made = withPrototype(Base, prototype);
    const object = new Made('by the base') as Modern & { extra(): string };
    expect(Object.getPrototypeOf(object)).toBe(prototype);
    expect(object.made).toBe('by the base');
    expect(object.extra()).toBe('from the prototype');
    expect(object).toBeInstanceOf(Base);
  }
});
