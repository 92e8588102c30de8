// The request log line, as pino-http gave it before it was made cheaper (src/http/request-log.ts), and the
// security headers, helmet's defaults.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { requestLog } from '../../src/http/request-log';
import { createLogger } from '../../src/logger';
import { createTestContext, type TestContext } from '../support/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const v1 = { 'cosafe-core-api-version': '1' };

test('every header helmet sets by default is set, with the same value', async () => {
  const reference = express();
  reference.use(helmet());
  reference.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  const expected = (await request(reference).get('/healthz')).headers;
  const actual = (await request(ctx.app).get('/healthz')).headers;
  const helmetNames = Object.keys(expected).filter(
    (name) => !['content-type', 'content-length', 'etag', 'date', 'connection', 'x-powered-by'].includes(name),
  );
  expect(helmetNames.length).toBeGreaterThanOrEqual(10);
  for (const name of helmetNames) expect([name, actual[name]]).toEqual([name, expected[name]]);
  expect(actual['x-powered-by']).toBeUndefined();
});

test('each request is logged once with its id, method, path without the query, status and time', async () => {
  const before = ctx.logs.length;
  const res = await request(ctx.app)
    .get('/core/v1/users/1/password-set?token=not-for-the-logs')
    .set(v1)
    .set('x-request-id', 'trace-42');
  expect(res.headers['x-request-id']).toBe('trace-42');
  const lines = ctx.logs
    .slice(before)
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'request completed');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    level: 30,
    req: { id: 'trace-42', method: 'GET', path: '/core/v1/users/1/password-set' },
    res: { statusCode: res.status },
  });
  expect(lines[0].responseTime).toEqual(expect.any(Number));
  expect(JSON.stringify(lines[0])).not.toContain('not-for-the-logs');
});

test('an unusable X-Request-Id is replaced by a new id; push tokens are redacted from the path', async () => {
  const before = ctx.logs.length;
  const res = await request(ctx.app)
    .delete('/core/v1/push-tokens/device-secret-123')
    .set(v1)
    .set('x-request-id', 'no spaces allowed');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const line = ctx.logs
    .slice(before)
    .map((l) => JSON.parse(l))
    .find((l) => l.msg === 'request completed');
  expect(line.req).toEqual({
    id: res.headers['x-request-id'],
    method: 'DELETE',
    path: '/core/v1/push-tokens/[redacted]',
  });
});

test("attack: reading the production request log for who was asked about: a probe's identity hash is redacted from the path", async () => {
  const hash = 'f'.repeat(64);
  const before = ctx.logs.length;
  await request(ctx.app).post(`/core/v1/probes/hash/${hash}`).set(v1).send({});
  await request(ctx.app).get('/c/some-confirmation-token');
  const lines = ctx.logs
    .slice(before)
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'request completed');
  expect(lines.map((l) => l.req.path)).toEqual(['/core/v1/probes/hash/[redacted]', '/c/[redacted]']);
  expect(JSON.stringify(lines)).not.toContain(hash);
  expect(JSON.stringify(lines)).not.toContain('some-confirmation-token');
});

test('5xx answers are logged at error; below info nothing is written for a good request', async () => {
  const written: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => void (written.push(String(chunk)), done()) });
  const app = express();
  app.use(requestLog(createLogger('warn', sink)));
  app.get('/ok', (_req, res) => void res.json({}));
  app.get('/broken', (_req, res) => void res.status(503).json({}));
  await request(app).get('/ok');
  expect(written).toEqual([]);
  await request(app).get('/broken');
  expect(written.map((l) => JSON.parse(l))).toEqual([
    expect.objectContaining({ level: 50, msg: 'request errored', res: { statusCode: 503 } }),
  ]);
});

test('a request whose caller goes away before the answer is logged once as aborted', async () => {
  const written: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => void (written.push(String(chunk)), done()) });
  const app = express();
  app.use(requestLog(createLogger('info', sink)));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  app.get('/slow', () => arrived()); // never answers
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const req = http.get({ host: '127.0.0.1', port, path: '/slow' }).on('error', () => undefined);
    await arrival;
    req.destroy();
    const deadline = Date.now() + 5_000;
    while (written.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request aborted',
        req: expect.objectContaining({ method: 'GET', path: '/slow' }),
      }),
    ]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
