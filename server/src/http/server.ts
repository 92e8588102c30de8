// The HTTP server around the app, with the bounds for slow and numerous clients: headers must arrive within
// HEADERS_TIMEOUT_MS (10 s by default; Node's own is 60 s and a slow client held a socket ~75 s), the whole
// request within REQUEST_TIMEOUT_MS, and at most MAX_CONNECTIONS open connections (more are closed at once); each
// client gets its share of the connections and of the sockets waiting for headers (connection-share.ts).
// Every request passes admission control first (admission.ts): what the instance takes on is decided from what it
// holds, by work class, and a refusal is answered before the request's body is read.
import http, { type Server } from 'node:http';
import type { IncomingMessage, RequestListener } from 'node:http';
import type { RuntimeConfig } from '../config';
import { createLogger, type Logger } from '../logger';
import { configureHashing } from '../security/passwords';
import proxyaddr from 'proxy-addr';
import { addressKey } from '../shared/client-address';
import { admit, type Admission, type AdmissionOptions } from './admission';
import { securityHeaders } from './security-headers';

export type ServerBounds = Pick<
  RuntimeConfig,
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'maxConnections'
  | 'minInFlight'
  | 'maxInFlight'
  | 'inFlightLatencyMs'
  | 'maxQueued'
  | 'queueDeadlineMs'
  | 'queueTargetMs'
  | 'queueIntervalMs'
  | 'hashConcurrency'
  | 'hashQueue'
  | 'maxConnectionsPerClient'
  | 'maxPendingHeadersPerClient'
  | 'clientIpv6Prefix'
>;
import { closeGently } from './body-limit';
import { shareConnections } from './connection-share';
import { answerClientError, type ErrorShape } from './error-shapes';

/** What the door asks of the modules (the composition root hands it: modules/registry.ts, doorPorts). */
export type DoorPorts = Pick<AdmissionOptions, 'verifyBearer' | 'signInLockedOut'>;

export interface ServerOptions extends DoorPorts {
  /** TRUST_PROXY as the app has it, so the door sees each request's client as the app does. */
  trustProxy?: number | string[];
  logger?: Logger;
  /** Parts of the API with their own error shape (SCIM), for refusals and the HTTP parser's answers. */
  errorShapes?: readonly ErrorShape[];
  /** Browser origins allowed to call the API: their refusals carry CORS headers, their preflights pass. */
  corsOrigins?: readonly string[];
}

export function createHttpServer(
  app: RequestListener,
  runtime: ServerBounds,
  {
    logger = createLogger('warn'),
    errorShapes = [],
    corsOrigins = [],
    trustProxy = 0,
    verifyBearer,
    signInLockedOut,
  }: ServerOptions = {},
): Server & { admission: Admission } {
  // The client's address as Express resolves it (app.ts: trust proxy), keyed as every per-client limit keys it.
  const trusted =
    typeof trustProxy === 'number' ? (_: string, hop: number) => hop < trustProxy : proxyaddr.compile(trustProxy);
  const clientKeyOf = (req: IncomingMessage) => addressKey(proxyaddr(req, trusted), runtime.clientIpv6Prefix);
  const hashing = configureHashing(runtime.hashConcurrency);
  const admission = admit(
    app,
    {
      minInFlight: runtime.minInFlight,
      maxInFlight: runtime.maxInFlight,
      latencyTargetMs: runtime.inFlightLatencyMs,
      maxQueued: runtime.maxQueued,
      deadlineMs: runtime.queueDeadlineMs,
      targetMs: runtime.queueTargetMs,
      intervalMs: runtime.queueIntervalMs,
      signInSlots: () => runtime.hashConcurrency + runtime.hashQueue,
      hashingFull: () => hashing.full,
      errorShapes,
      corsOrigins,
      answerHeaders: securityHeaders(),
      verifyBearer,
      signInLockedOut,
      clientKeyOf,
    },
    logger,
  );
  const server = http.createServer(
    {
      headersTimeout: Math.min(runtime.headersTimeoutMs, runtime.requestTimeoutMs),
      requestTimeout: runtime.requestTimeoutMs,
      // How often Node checks those timeouts (its default, 30 s, would let a slow client stay up to 40 s).
      connectionsCheckingInterval: Math.min(1_000, Math.floor(runtime.headersTimeoutMs / 4)),
    },
    admission.listener,
  );
  server.once('close', admission.stop);
  // Requests the HTTP parser refuses (headers too large) answer in the shape of the part of the API they were for.
  server.on('clientError', answerClientError(errorShapes, securityHeaders()));
  server.maxConnections = runtime.maxConnections;
  shareConnections(server, {
    maxPerClient: runtime.maxConnectionsPerClient,
    maxPendingPerClient: runtime.maxPendingHeadersPerClient,
    ipv6PrefixBits: runtime.clientIpv6Prefix,
  });
  // A refused body's 413 reaches a client that is still sending (body-limit.ts).
  server.on('connection', closeGently);
  return Object.assign(server, { admission });
}
