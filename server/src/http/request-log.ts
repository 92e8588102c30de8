// One line per request at info (5xx at error), with its id, method, path (never the query string: it can carry
// tokens; never a secret segment: a token, a probe's identity hash), status and time taken; every answer carries
// the request id (X-Request-Id, or a new UUID). Two kinds of answer get no line of their own: a refusal (503 with
// Retry-After: busy, come back) is summarised with the others in one warn line a second (refusals.ts), and a
// health check while the instance drains is expected.
// pino-http did this with two child loggers per request whose bindings (the request, serialised and redacted)
// were built even when info lines were not written: about 0.15 ms of CPU per request at level warn.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { isDraining } from './drain';
import { summariseRefusal } from './refusals';

declare module 'http' {
  interface IncomingMessage {
    /** This request's id (X-Request-Id when the caller sent a usable one). */
    id?: string;
  }
}

const healthChecks = new Set(['/healthz', '/readyz']);
const requestIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Path segments that are secrets or personal data, redacted as the traces redact them (telemetry.ts): a
 * confirmation link's token, a push token, a probe's identity hash (the unsalted SHA-256 of an email address).
 */
const secretSegments = [/^(\/c\/)[^/]+/, /(\/push-tokens\/)[^/]+/, /(\/probes\/hash\/)[^/]+/];

/** The path as logged: no query string, and no secret segment. */
const loggedPath = (url: string) =>
  secretSegments.reduce((path, pattern) => path.replace(pattern, '$1[redacted]'), url.split('?')[0]);

/** `instance` names this process (INSTANCE_ID, or host and pid): instances of a region share one log. */
export function requestLog(logger: Logger, instance?: string): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    const started = performance.now();
    const url = req.url;
    const done = () => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      if (res.statusCode === 503 && res.hasHeader('retry-after')) {
        const operation = (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
        summariseRefusal(logger, operation ?? 'unmatched');
        return;
      }
      if (isDraining() && healthChecks.has(req.path)) return;
      const failed = res.statusCode >= 500;
      const level = failed ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const fields = {
        instance,
        req: { id, method: req.method, path: loggedPath(url) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      logger[level](
        fields,
        failed ? 'request errored' : res.writableFinished ? 'request completed' : 'request aborted',
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
