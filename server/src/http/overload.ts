// Overload and oversized bodies, answered before any work is done.
// - At most maxInFlight requests are handled at once; others wait in a bounded queue, each at most
//   queueDeadlineMs. A request that finds the queue full, or whose deadline passes, is answered
//   503 SERVICE_UNAVAILABLE with Retry-After at once: under more load than it can serve an instance sheds the
//   excess quickly instead of building a backlog that makes every answer late (and memory grow).
// - A body whose Content-Length exceeds the limit is answered 413 from its headers, before it is sent
//   (body parsing would read, and wait for, the whole body first), and the connection is closed after it.
// Health checks (/healthz, /readyz) and /metrics are never queued: a busy instance stays in its balancer.
import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../errors';
import { overloadRejections } from '../metrics/metrics';
import { shapeOf, type ErrorShape } from './error-shapes';

export interface OverloadOptions {
  maxInFlight: number;
  maxQueued: number;
  queueDeadlineMs: number;
}

const exempt = new Set(['/healthz', '/readyz', '/metrics']);

function unavailable(req: Request, res: Response, shapes: readonly ErrorShape[]): void {
  overloadRejections.inc();
  res.set('Retry-After', '1');
  const message = 'The service is busy; try again in a moment';
  // A part of the API with its own error shape (SCIM) answers in it.
  const shape = shapes.length ? shapeOf(shapes, req.path) : undefined;
  if (shape) res.status(503).type(shape.contentType).json(shape.body(503, message));
  else res.status(503).json(new ApiError('SERVICE_UNAVAILABLE', { message }).toBody(req.id));
}

export function boundInFlight(
  options: OverloadOptions,
  errorShapes: readonly ErrorShape[] = [],
): RequestHandler & { inFlight(): number; queued(): number } {
  let inFlight = 0;
  const queue: { start: () => void; timer: NodeJS.Timeout }[] = [];

  const release = () => {
    inFlight--;
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start();
    }
  };

  const middleware: RequestHandler = (req, res, next) => {
    if (exempt.has(req.path)) return next();
    const start = () => {
      inFlight++;
      let released = false;
      const done = () => {
        if (released) return;
        released = true;
        res.removeListener('finish', done);
        res.removeListener('close', done);
        release();
      };
      res.on('finish', done);
      res.on('close', done);
      next();
    };
    if (inFlight < options.maxInFlight) return start();
    if (queue.length >= options.maxQueued || options.queueDeadlineMs === 0) return unavailable(req, res, errorShapes);
    const entry = {
      start,
      timer: setTimeout(() => {
        const i = queue.indexOf(entry);
        if (i >= 0) queue.splice(i, 1);
        unavailable(req, res, errorShapes);
      }, options.queueDeadlineMs),
    };
    // A client that gives up while queued leaves the queue.
    res.once('close', () => {
      const i = queue.indexOf(entry);
      if (i >= 0) {
        queue.splice(i, 1);
        clearTimeout(entry.timer);
      }
    });
    queue.push(entry);
  };
  return Object.assign(middleware, { inFlight: () => inFlight, queued: () => queue.length });
}

/** '100kb', '1mb', '512' → bytes. */
export function parseByteLimit(limit: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`not a byte size: ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

export function rejectOversizedBodies(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.headers['content-length']);
    if (!Number.isFinite(length) || length <= limitBytes) return next();
    res.set('Connection', 'close');
    // Answered by the error handlers, so that each part of the API answers in its own shape (SCIM's for SCIM).
    next(new ApiError('PAYLOAD_TOO_LARGE', { message: 'The body is too large' }));
  };
}
