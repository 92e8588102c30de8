// The HTTP server around the app, with the bounds for slow and numerous clients: headers must arrive within
// HEADERS_TIMEOUT_MS (10 s by default; Node's own is 60 s and a slow client held a socket ~75 s), the whole
// request within REQUEST_TIMEOUT_MS, and at most MAX_CONNECTIONS open connections (more are closed at once); while
// the event loop runs more than MAX_EVENT_LOOP_DELAY_MS late, new requests are shed at the door (pressure.ts).
import http, { type Server } from 'node:http';
import type { RequestListener } from 'node:http';
import type { RuntimeConfig } from '../config';
import { shedUnderPressure } from './pressure';

export function createHttpServer(
  app: RequestListener,
  runtime: Pick<RuntimeConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnections' | 'maxEventLoopDelayMs'>,
  /** Browser origins allowed to call the API: their shed answers carry CORS headers (pressure.ts). */
  corsOrigins: readonly string[] = [],
): Server {
  const gate = shedUnderPressure(app, { maxDelayMs: runtime.maxEventLoopDelayMs, corsOrigins });
  const server = http.createServer(
    {
      headersTimeout: Math.min(runtime.headersTimeoutMs, runtime.requestTimeoutMs),
      requestTimeout: runtime.requestTimeoutMs,
      // How often Node checks those timeouts (its default, 30 s, would let a slow client stay up to 40 s).
      connectionsCheckingInterval: Math.min(1_000, Math.floor(runtime.headersTimeoutMs / 4)),
    },
    gate.listener,
  );
  server.once('close', gate.stop);
  server.maxConnections = runtime.maxConnections;
  return server;
}
