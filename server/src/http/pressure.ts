// Shedding at the door. The in-flight bound (overload.ts) holds the work an instance has accepted, but each excess
// request still costs parsing, the request log, metrics and an Express answer before it is refused; past a
// certain rate those refusals alone take the whole event loop, requests wait in socket buffers, and even a 503
// comes seconds late. So the process watches its own event loop: while a timer that should fire every
// `sampleMs` fires more than `maxDelayMs` late twice in a row (one long pause, a garbage collection say, is not
// overload), the instance is past what it can serve, and a new request is
// answered 503 SERVICE_UNAVAILABLE with Retry-After from bytes made once, before Express sees it. Health checks
// and /metrics are never shed.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { overloadRejections } from '../metrics/metrics';

export interface PressureOptions {
  /** The event loop is late by more than this: shed. 0 turns the check off. */
  maxDelayMs: number;
  /** How often the loop's delay is sampled. */
  sampleMs?: number;
  /**
   * Browser origins allowed to call the API (CORS_ORIGINS): a shed answer to one of them carries its CORS headers
   * (a browser reads an answer without them as a network failure, and never sees Retry-After), and its preflight
   * goes through (without it the browser never sends the request it announces).
   */
  corsOrigins?: readonly string[];
}

const exempt = new Set(['/healthz', '/readyz', '/metrics']);

const body = Buffer.from(
  JSON.stringify(
    new ApiError('SERVICE_UNAVAILABLE', { message: 'The service is busy; try again in a moment' }).toBody(),
  ),
);
const headers = {
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(body.length),
  'Cache-Control': 'no-store',
  'Retry-After': '1',
  'X-Content-Type-Options': 'nosniff',
};

export interface PressureGate {
  listener: RequestListener;
  /** The loop's delay at the last sample, in ms. */
  delayMs(): number;
  /** Whether new requests are shed now (the last two samples were late). */
  shedding(): boolean;
  stop(): void;
}

/** Wraps the app: while the event loop is late, new requests are answered 503 at once. */
export function shedUnderPressure(app: RequestListener, options: PressureOptions): PressureGate {
  const sampleMs = options.sampleMs ?? 50;
  let delay = 0;
  let previous = 0;
  let timer: NodeJS.Timeout | undefined;
  if (options.maxDelayMs > 0) {
    let due = performance.now() + sampleMs;
    const sample = () => {
      const now = performance.now();
      previous = delay;
      delay = Math.max(0, now - due);
      due = now + sampleMs;
      timer = setTimeout(sample, sampleMs).unref();
    };
    timer = setTimeout(sample, sampleMs).unref();
  }
  const allowedOrigins = new Set(options.corsOrigins ?? []);
  const listener: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const origin =
      typeof req.headers.origin === 'string' && allowedOrigins.has(req.headers.origin) ? req.headers.origin : null;
    const preflight = req.method === 'OPTIONS' && origin !== null && req.headers['access-control-request-method'];
    if (
      options.maxDelayMs > 0 &&
      Math.min(delay, previous) > options.maxDelayMs &&
      !exempt.has(pathOf(req.url)) &&
      !preflight
    ) {
      overloadRejections.inc();
      // The request's body is not read: the connection closes after the answer, so nothing is left half-read.
      res.shouldKeepAlive = req.method === 'GET' || req.method === 'HEAD' ? res.shouldKeepAlive : false;
      res.writeHead(
        503,
        origin === null
          ? headers
          : {
              ...headers,
              'Access-Control-Allow-Origin': origin,
              'Access-Control-Expose-Headers': 'retry-after',
              Vary: 'Origin',
            },
      );
      res.end(body);
      return;
    }
    app(req, res);
  };
  return {
    listener,
    delayMs: () => delay,
    shedding: () => options.maxDelayMs > 0 && Math.min(delay, previous) > options.maxDelayMs,
    stop: () => clearTimeout(timer),
  };
}

const pathOf = (url: string | undefined) => {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
};
