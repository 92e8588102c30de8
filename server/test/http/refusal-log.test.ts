// What the log says about refusals and draining (issue: shedding and draining flooded the error log): a refusal
// answered inside the app (503 with Retry-After, e.g. the hashing line is full) gets no line of its own but one
// warn summary a second with its operation, and health checks while the instance drains log nothing.
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { ApiError } from '../../src/errors';
import { startDraining } from '../../src/http/drain';
import { errorHandler } from '../../src/http/error-handler';
import { requestLog } from '../../src/http/request-log';
import { createLogger } from '../../src/logger';
import { registry } from '../../src/metrics/metrics';
import { requestMetrics } from '../../src/http/metrics-route';

function app() {
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _e, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    }),
  );
  let draining = false;
  const server = express()
    .use(requestLog(logger))
    .use(requestMetrics())
    .use((req, _res, next) => {
      // What the validator leaves on a matched request.
      (req as { openapi?: unknown }).openapi = { schema: { operationId: 'probeHash' } };
      next();
    })
    .post('/core/v1/probes/hash/abc', () => {
      throw new ApiError('SERVICE_UNAVAILABLE', { unavailableUntil: new Date(Date.now() + 1_000) });
    })
    .get('/database-down', () => {
      throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The database is not reachable' });
    })
    .get('/readyz', (_req, res) => void (draining ? res.status(503).json({ status: 'draining' }) : res.json({})))
    .use(errorHandler(logger));
  return { server, logs, drain: () => (draining = true) };
}

test('refusals inside the app are counted under their operation and summarised once a second, not logged each', async () => {
  const { server, logs } = app();
  for (let i = 0; i < 5; i++) {
    const res = await request(server).post('/core/v1/probes/hash/abc');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  }
  expect(logs).toEqual([]);
  expect(await registry.getSingleMetricAsString('core_http_requests_total')).toContain(
    'core_http_requests_total{operation="probeHash",status="503"} 5',
  );
  await new Promise((r) => setTimeout(r, 1_200));
  expect(logs).toEqual([expect.objectContaining({ level: 40, refused: 5, byOperation: { 'probeHash 503': 5 } })]);
});

test('a 503 that is not a refusal (no Retry-After: the database is down) is still an error line of its own', async () => {
  const { server, logs } = app();
  expect((await request(server).get('/database-down')).status).toBe(503);
  expect(logs).toEqual([expect.objectContaining({ level: 50, res: { statusCode: 503 } })]);
});

test('health checks while the instance drains log nothing', async () => {
  const { server, logs, drain } = app();
  drain();
  startDraining();
  for (let i = 0; i < 3; i++) expect((await request(server).get('/readyz')).status).toBe(503);
  expect(logs).toEqual([]);
});
