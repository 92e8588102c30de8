// GET /metrics (Prometheus text format) and the per-request counters behind it. An operational endpoint beside
// /healthz and /readyz, not part of the /core/v1 contract. In production it needs METRICS_TOKEN as a bearer
// token and is off (404) without one; elsewhere it is open unless a token is configured.
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { httpDuration, httpRequests, registry } from '../metrics/metrics';

/** Route groups outside the contract, by first path segment; anything else is 'other' (labels stay few). */
const groups = new Set(['healthz', 'readyz', 'metrics', 'docs', 'assets', 'c', 'dev', 'core']);

/** Counts each answer by its contract operation (the route group outside the contract) and status. */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const group = req.originalUrl.split(/[/?]/)[1] ?? '';
      const operation =
        (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId ??
        (group === 'core' ? 'unmatched' : groups.has(group) ? group : 'other');
      const labels = { operation, status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, (performance.now() - started) / 1_000);
    });
    next();
  };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function metricsRoute(config: Config): RequestHandler {
  const token = config.runtime.metricsToken;
  return async (req, res) => {
    if (!token && config.mode === 'production') {
      res.status(404).json(new ApiError('NOT_FOUND').toBody());
      return;
    }
    if (token) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(given, token)) {
        res.set('WWW-Authenticate', 'Bearer');
        res.status(401).json(new ApiError('UNAUTHORIZED').toBody());
        return;
      }
    }
    res.set('Content-Type', registry.contentType);
    res.set('Cache-Control', 'no-store');
    res.send(await registry.metrics());
  };
}
