// Attacks on the door through the router: another spelling of a sign-in path (a trailing slash, capitals) must not
// run the password handlers outside the sign-in line, one locked-out address must not keep others from signing in,
// and what is answered before Express (a shed 503, a 431 for headers too large) carries what every answer carries.
import http, { type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { isContractPath, operationOf } from '../../src/http/admission';
import { contractView } from '../../src/http/spec';
import { createHttpServer } from '../../src/http/server';
import { doorPorts } from '../../src/modules/registry';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';

let ctx: TestContext;
const ran: string[] = [];
beforeAll(async () => {
  ctx = await createTestContext({
    handlers: (handlers) => {
      const watched = { ...handlers };
      for (const id of ['createSession', 'probeHash', 'resetPassword', 'setPassword'] as const) {
        const handler = handlers[id] as (c: unknown) => Promise<never>;
        (watched as Record<string, unknown>)[id] = (c: unknown) => (ran.push(id), handler(c));
      }
      return watched;
    },
  });
});
afterAll(() => ctx.close());

const hash = 'a'.repeat(64);

describe('attack: another spelling of a sign-in path runs the password handlers outside the sign-in line', () => {
  test.each([
    '/core/v1/sessions/',
    '/core/v1/sessions//',
    '/CORE/V1/SESSIONS',
    '/Core/v1/sessions',
    '/core/V1/sessions',
    '/core/v1/Sessions',
    `/core/v1/probes/hash/${hash}/`,
    `/core/v1/PROBES/hash/${hash}`,
    `/core/v1/probes/Hash/${hash}`,
    '/core/v1/users/5/password-reset/',
    '/core/v1/users/5/PASSWORD-RESET',
    '/core/v1/users/5/password-set/',
    '/core/v1/users/5/Password-Set',
  ])('POST %s answers the 404 envelope before any handler, and the door calls it other work', async (path) => {
    ran.length = 0;
    const res = await request(ctx.app)
      .post(path)
      .set(v1)
      .set('authorization', 'Bearer made-up')
      .send({ grantType: 'password', email: 'a@example.com', password: 'x', token: 'y' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', error: { httpStatus: 404, code: 'NOT_FOUND' } });
    expect(ran).toEqual([]);
    expect(operationOf('POST', path)).toBeUndefined();
    expect(isContractPath(path)).toBe(false);
  });

  test('a SCIM path spelled otherwise answers a SCIM 404', async () => {
    const res = await request(ctx.app).get('/core/v1/scim/v2/users/').set('authorization', 'Bearer x');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/scim\+json/);
  });

  test('the exact spelling is the operation it names, for the door and the router alike', async () => {
    ran.length = 0;
    await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: 'a@example.com', password: 'x' });
    await request(ctx.app).post(`/core/v1/probes/hash/${hash}`).set(v1).send({ password: 'x' });
    expect(ran).toEqual(['createSession', 'probeHash']);
    expect(operationOf('POST', '/core/v1/sessions')?.operationId).toBe('createSession');
    expect(operationOf('POST', `/core/v1/probes/hash/${hash}`)?.operationId).toBe('probeHash');
  });

  test('no two operations of one method match one path, so the door and the router name the same operation', () => {
    const ops = [...contractView().operations.values()];
    const overlapping: string[] = [];
    for (const a of ops)
      for (const b of ops) {
        if (a === b || a.method !== b.method) continue;
        const [x, y] = [a.path.split('/'), b.path.split('/')];
        if (x.length === y.length && x.every((s, i) => s === y[i] || s.startsWith('{') || y[i].startsWith('{')))
          overlapping.push(`${a.operationId} ${b.operationId}`);
      }
    expect(overlapping).toEqual([]);
    // Every operation, its parameters filled in, is found as itself.
    for (const op of ops)
      expect(operationOf(op.method.toUpperCase(), op.path.replace(/\{[^}]+\}/g, 'x1'))?.operationId).toBe(
        op.operationId,
      );
  });
});

/** The server as serve.ts builds it, around this file's app, with the hashing line of one place and four waiting. */
async function served(bounds: Partial<TestContext['config']['runtime']> = {}) {
  const server = createHttpServer(
    ctx.app,
    { ...ctx.config.runtime, hashConcurrency: 1, hashQueue: 4, ...bounds },
    { errorShapes: [], trustProxy: 0, ...doorPorts(ctx.services) },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
const close = (server: Server) =>
  new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

const post = (port: number, from: string, path: string, body: unknown) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        localAddress: from,
        agent: false,
        headers: { ...v1, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

describe('attack: one locked-out address keeps everyone from signing in', () => {
  test('50 requests at a time from one long-locked address do not keep a legitimate sign-in from another address out', async () => {
    const victim = await insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
    // 127.0.0.2 has been locked out for an hour (its own failures, long ago).
    await ctx.services.db
      .insertInto('throttles')
      .values({
        key: 'login:address:127.0.0.2',
        count: 500,
        window_ends_at: new Date(Date.now() + 3_600_000),
        blocked_until: new Date(Date.now() + 3_600_000),
      })
      .execute();
    const { server, port } = await served();
    try {
      let flooding = true;
      const answers = new Map<number, number>();
      const flooder = async () => {
        while (flooding) {
          const { status } = await post(port, '127.0.0.2', '/core/v1/sessions', {
            grantType: 'password',
            email: `guess${Math.random()}@example.com`,
            password: 'Wrong-Password-1!',
          });
          answers.set(status, (answers.get(status) ?? 0) + 1);
        }
      };
      const flood = Array.from({ length: 50 }, flooder);
      // While only the locked address sends, it never holds a place in the hashing line.
      let placesHeld = 0;
      const sampler = setInterval(() => (placesHeld = Math.max(placesHeld, server.admission.inFlight().b)), 1);
      while ([...answers.values()].reduce((a, b) => a + b, 0) < 100) await new Promise((r) => setTimeout(r, 10));
      clearInterval(sampler);
      const legitimate: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post(port, '127.0.0.3', '/core/v1/sessions', {
          grantType: 'password',
          email: victim.email,
          password: goodPassword,
        });
        legitimate.push(res.status);
      }
      flooding = false;
      await Promise.all(flood);
      expect(placesHeld).toBe(0);
      expect(legitimate).toEqual([201, 201, 201, 201, 201]);
      // The locked address was answered by its lockout, never let into the hashing line.
      expect(answers.get(429)).toBeGreaterThan(0);
      expect(answers.get(401) ?? 0).toBe(0);
    } finally {
      await close(server);
    }
  }, 60_000);
});

describe('answers written before Express', () => {
  test('a shed 503 carries the security headers and X-Request-Id every other answer carries', async () => {
    const { server, port } = await served({ minInFlight: 0, maxInFlight: 1, maxQueued: 0 });
    try {
      // One slow request holds the only slot: the probe's answer waits on argon2 in its own line, so a
      // signed-in-less read is used instead, held by never sending its body.
      const holder = connect(port, '127.0.0.1', () =>
        holder.write(
          'POST /core/v1/users/password-reset HTTP/1.1\r\nHost: x\r\ncosafe-core-api-version: 1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
      const normal = await request(ctx.app).get('/core/v1/tenants').set(v1);
      const shed = await post(port, '127.0.0.1', '/core/v1/users/password-reset', { email: emailHash('x') });
      holder.destroy();
      expect(shed.status).toBe(503);
      const securityHeaders = Object.keys(normal.headers).filter((h) =>
        /^(content-security-policy|strict-transport-security|x-|cross-origin-|origin-agent|referrer-policy)/.test(h),
      );
      expect(securityHeaders.length).toBeGreaterThan(5);
      for (const name of securityHeaders) expect([name, shed.headers[name]]).toEqual([name, expect.any(String)]);
      expect(shed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await close(server);
    }
  });

  test('headers too large on /core/v1 answer 431 in the spec envelope, with the security headers', async () => {
    const { server, port } = await served();
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET /core/v1/tenants HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`),
        );
        socket.on('data', (c) => (received += c));
        socket.on('close', () => resolve(received));
        socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? resolve(received) : reject(e)));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/\r\ncontent-security-policy: /i);
      expect(answer).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
        status: 'error',
        error: { httpStatus: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' },
      });
    } finally {
      await close(server);
    }
  });
});
