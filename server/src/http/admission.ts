// Admission control at the door: what an instance takes on is decided from what it holds itself — requests in
// flight and how long the waiting ones have waited — not from the host's CPU (a busy neighbour, a CPU-limited
// container or one long embedded-database query must not refuse a lone user). Each request is put in a work class
// from its method, path and headers alone, before its body is read:
//   (a) signed-in users (a bearer token: GETs, refresh, logout, alarms, messages); health checks and /metrics
//       pass without a slot, so a busy instance stays in its balancer;
//   (b) argon2-bound work (password sign-in and re-authentication, probes, password reset and set; a sign-in
//       whose cosafe-grant-type header names a grant without a password is (c)): admitted while the hashing pool and
//       its bounded line have room (security/passwords.ts), refused at once otherwise — a wave of sign-ins fills
//       its own line, never (a)'s slots;
//   (c) everything else, which may take only part of the slots, so (a) always finds one.
// How many (a) and (c) requests run at once adapts (Little's law): every quarter second the limit becomes what the
// instance completed per second times `latencyTargetMs`, between `minInFlight` and `maxInFlight`. While answers
// are quick the limit grows (throughput × target exceeds what is in flight); when the instance can do less — a
// starved CPU, a slow database — the limit shrinks until an admitted request waits about the target, instead of
// letting hundreds share a slow loop while the excess piles up unseen in socket buffers. Below `minInFlight`
// nothing is ever refused (the floor). Beyond the limit requests wait in a queue per class, (a) served first.
// The queue is CoDel-style: while it drains (a burst: a garbage-collection pause or a host stall leaves everything
// that arrived meanwhile to be read at once) a request may wait `deadlineMs`; once it stands (it has neither emptied
// nor shrunk over an interval: requests arrive faster than they leave) only `targetMs`, so under sustained overload
// the excess is refused in milliseconds instead of adding its wait to every answer. A refusal is 503
// SERVICE_UNAVAILABLE with Retry-After, from bytes made once, before the body is read. A small declared body is then
// read off and dropped so the connection stays open (closing it would send every refused client through a new TCP
// handshake, a storm of them at overload); a large or chunked one closes the connection, so nothing is left
// half-read. It is counted per operation and summarised in the log once a second.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { contractView } from './spec';
import { shapeOf, type ErrorShape } from './error-shapes';
import { countDoorRefusal, type RefusalReason } from './refusals';

export type WorkClass = 'a' | 'b' | 'c';

export interface AdmissionOptions {
  /** The floor: while fewer (a) and (c) requests than this are in flight, nothing is refused. */
  minInFlight: number;
  /** The ceiling of the adaptive limit of (a) and (c) requests in flight. */
  maxInFlight: number;
  /** The answer time of an admitted request the limit aims at (completed per second × this = the limit). */
  latencyTargetMs: number;
  /** Requests waiting for a slot, all classes together. */
  maxQueued: number;
  /** How long a request may wait for a slot while the queue is a burst that drains. */
  deadlineMs: number;
  /** How long once the queue stands: it has not emptied, nor shrunk, for a whole interval (CoDel's target). */
  targetMs: number;
  /** The interval over which a queue that neither empties nor shrinks is called standing; `deadlineMs` if unset. */
  intervalMs?: number;
  /** (b) requests admitted at once: the hashing pool and its line. */
  signInSlots: () => number;
  /** True while the hashing line is full. */
  hashingFull?: () => boolean;
  /** Parts of the API that answer in their own error shape (SCIM); elsewhere the platform envelope. */
  errorShapes?: readonly ErrorShape[];
  /**
   * Browser origins allowed to call the API (CORS_ORIGINS): a refusal sent to one carries its CORS headers (a
   * browser reads an answer without them as a network failure, and never sees Retry-After), and its preflight is
   * never refused (it costs no work, and without it the browser never sends the request it announces).
   */
  corsOrigins?: readonly string[];
}

const exempt = new Set(['/healthz', '/readyz', '/metrics']);
const argon2Bound =
  /^\/core\/v1\/(?:sessions|sessions\/[^/]+\/reauthentication|probes\/hash\/[^/]+|users\/[^/]+\/password-(?:reset|set))$/;

/**
 * A sign-in whose `cosafe-grant-type` names a grant that hashes no password (a passkey's signature, a coAlert code's
 * keyed hash, single sign-on's redirect) is other unauthenticated work, not the hashing line's. The handler refuses
 * a header that is not the body's grantType (400), so saying so falsely buys nothing but a quick refusal.
 */
const signInPath = '/core/v1/sessions';
const grantsWithoutPassword = new Set(['passkey', 'coAlertCode', 'sso']);
const announcesNoPassword = (headers: IncomingMessage['headers']) => {
  const grant = headers['cosafe-grant-type'];
  return typeof grant === 'string' && grantsWithoutPassword.has(grant);
};

const pathOf = (url: string | undefined) => {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
};

/** The work class of a request, from what arrives before its body; null: never queued nor refused. */
export function classify(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): WorkClass | null {
  const path = pathOf(req.url);
  if (exempt.has(path)) return null;
  if (req.method === 'POST' && argon2Bound.test(path) && !(path === signInPath && announcesNoPassword(req.headers)))
    return 'b';
  if (path.startsWith('/core/v1/scim/')) return 'c';
  const authorization = req.headers.authorization;
  if (authorization && authorization.length > 7 && /^bearer /i.test(authorization)) return 'a';
  return 'c';
}

/** Contract operation of a method and path (for the refusal's metrics label), from the routes of that method. */
function operationMatcher(): (method: string, path: string) => string {
  const byMethod = new Map<string, { pattern: RegExp; operationId: string }[]>();
  for (const op of contractView().operations.values()) {
    const method = op.method.toUpperCase();
    const pattern = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    byMethod.set(method, [...(byMethod.get(method) ?? []), { pattern, operationId: op.operationId }]);
  }
  return (method, path) =>
    byMethod.get(method)?.find((r) => r.pattern.test(path))?.operationId ??
    (path.startsWith('/core/') ? 'unmatched' : 'other');
}

/** The most a refused request's body may declare and still keep its connection (it is read off and dropped). */
const keptBodyBytes = 16 * 1024;
const smallBody = (req: IncomingMessage) => {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  return length === undefined || (/^\d{1,9}$/.test(length) && Number(length) <= keptBodyBytes);
};

const busyMessage = 'The service is busy; try again in a moment';

/** A refusal's answer, made once: its headers and body bytes. */
function refusalAnswer(contentType: string, payload: unknown) {
  const body = Buffer.from(JSON.stringify(payload));
  const headers = {
    'Content-Type': contentType,
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    'Retry-After': '1',
    'X-Content-Type-Options': 'nosniff',
  };
  return { headers, body };
}
const platformRefusal = refusalAnswer(
  'application/json; charset=utf-8',
  new ApiError('SERVICE_UNAVAILABLE', { message: busyMessage }).toBody(),
);

interface Waiting {
  at: number;
  start: () => void;
  refuse: (reason: RefusalReason) => void;
  gone: boolean;
}

class Queue {
  items: Waiting[] = [];
  head = 0;
  /**
   * Standing (CoDel): the queue has not emptied, and its shortest length over an interval was no shorter than over
   * the interval before, so requests arrive faster than they leave; a burst (a garbage-collection pause, a host
   * stall: everything that arrived meanwhile is read at once) shrinks from interval to interval, and its requests
   * may wait the deadline. The shortest length, not one sample: answers leave and requests join in turns, and a
   * sample taken after a join would read a shrinking queue as standing.
   */
  standing = false;
  /** The start of the current interval (null while the queue is empty) and the shortest lengths seen. */
  private markAt: number | null = null;
  private lowest = 0;
  private previousLowest: number | null = null;
  get length() {
    return this.items.length - this.head;
  }
  push(w: Waiting) {
    this.items.push(w);
  }
  /** Called as the queue drains: notes its length, and at each interval's end whether it stood. */
  observe(now: number, intervalMs: number) {
    const length = this.length;
    if (length === 0) return this.emptied();
    if (this.markAt === null) {
      this.markAt = now;
      this.lowest = length;
      return;
    }
    this.lowest = Math.min(this.lowest, length);
    if (now - this.markAt >= intervalMs) {
      this.standing = this.previousLowest !== null && this.lowest >= this.previousLowest;
      this.previousLowest = this.lowest;
      this.lowest = length;
      this.markAt = now;
    }
  }
  peek(): Waiting | undefined {
    while (this.head < this.items.length && this.items[this.head].gone) this.head++;
    this.compact();
    return this.items[this.head];
  }
  shift(): Waiting | undefined {
    const w = this.peek();
    if (w) this.head++;
    this.compact();
    return w;
  }
  private emptied() {
    this.standing = false;
    this.markAt = null;
    this.previousLowest = null;
  }
  private compact() {
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
      this.emptied();
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

export interface Admission {
  listener: RequestListener;
  /** The (a) and (c) requests admitted at once now. */
  limit(): number;
  inFlight(): { a: number; b: number; c: number };
  queued(): { a: number; c: number };
  stop(): void;
}

/** Wraps the app with admission control (see the top of this file). */
export function admit(app: RequestListener, options: AdmissionOptions, logger: Logger): Admission {
  const shapes = options.errorShapes ?? [];
  // A part of the API with its own error shape (SCIM) is refused in it; each answer is made once.
  const shapedRefusals = new Map(
    shapes.map((shape) => [shape, refusalAnswer(shape.contentType, shape.body(503, busyMessage))]),
  );
  const refusalFor = (path: string) =>
    (shapes.length ? shapedRefusals.get(shapeOf(shapes, path)!) : undefined) ?? platformRefusal;
  const allowedOrigins = new Set(options.corsOrigins ?? []);
  const allowedOrigin = (req: IncomingMessage) =>
    typeof req.headers.origin === 'string' && allowedOrigins.has(req.headers.origin) ? req.headers.origin : null;
  const running = { a: 0, b: 0, c: 0 };
  const queues = { a: new Queue(), c: new Queue() };
  let queuedCount = 0;
  let sweeper: NodeJS.Timeout | null = null;
  let operationOf: ((method: string, path: string) => string) | null = null;
  let limit = options.maxInFlight;
  let completed = 0;
  let windowStart = performance.now();
  /** Little's law, once a quarter second: the limit follows what the instance completes. */
  const adapt = (now: number) => {
    const elapsed = now - windowStart;
    if (elapsed < 250) return;
    const fitting = Math.ceil(((completed * 1_000) / elapsed) * (options.latencyTargetMs / 1_000));
    limit = Math.min(options.maxInFlight, Math.max(options.minInFlight, fitting));
    completed = 0;
    windowStart = now;
  };
  // (c) may hold at most three quarters of the slots: a signed-in user's request always finds one soon.
  const slotsFor = (cls: 'a' | 'c') => (cls === 'a' ? limit : Math.max(1, Math.floor(limit * 0.75)));
  const busy = () => running.a + running.c;

  const intervalMs = options.intervalMs ?? options.deadlineMs;
  const wait = (queue: Queue) => (queue.standing ? options.targetMs : options.deadlineMs);

  const refuse = (req: IncomingMessage, res: ServerResponse, cls: WorkClass, reason: RefusalReason, at: number) => {
    if (res.headersSent || res.destroyed) return;
    operationOf ??= operationMatcher();
    countDoorRefusal(logger, operationOf(req.method ?? 'GET', pathOf(req.url)), cls, reason, at);
    // The body is not read before the answer. A small declared one is read off and dropped after it (Node does that
    // for an unread body of a kept-alive connection); a large or chunked one closes the connection.
    if (!smallBody(req)) res.shouldKeepAlive = false;
    const answer = refusalFor(pathOf(req.url));
    const origin = allowedOrigin(req);
    res.writeHead(
      503,
      origin === null
        ? answer.headers
        : {
            ...answer.headers,
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Expose-Headers': 'retry-after',
            Vary: 'Origin',
          },
    );
    res.end(answer.body);
  };

  const drain = () => {
    const now = performance.now();
    for (const cls of ['a', 'c'] as const) {
      const queue = queues[cls];
      queue.observe(now, intervalMs);
      for (let next = queue.peek(); next; next = queue.peek()) {
        if (now - next.at > wait(queue)) {
          queue.shift();
          queuedCount--;
          next.refuse('queue-timeout');
          continue;
        }
        if (busy() >= slotsFor(cls) || (cls === 'c' && queues.a.length > 0)) break;
        queue.shift();
        queuedCount--;
        next.start();
      }
      queue.observe(now, intervalMs);
    }
    if (queuedCount === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };

  const run = (req: IncomingMessage, res: ServerResponse, cls: WorkClass) => {
    running[cls]++;
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      res.removeListener('finish', done);
      res.removeListener('close', done);
      running[cls]--;
      if (cls !== 'b') {
        completed++;
        adapt(performance.now());
      }
      if (queuedCount > 0) drain();
    };
    res.on('finish', done);
    res.on('close', done);
    app(req, res);
  };

  const listener: RequestListener = (req, res) => {
    const cls = classify(req);
    if (cls === null) return app(req, res);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] && allowedOrigin(req) !== null)
      return app(req, res);
    const at = performance.now();
    if (cls === 'b') {
      if (running.b >= options.signInSlots() || options.hashingFull?.())
        return refuse(req, res, cls, 'sign-in-queue-full', at);
      return run(req, res, cls);
    }
    const queue = queues[cls];
    const ahead = cls === 'a' ? queue.length : queue.length + queues.a.length;
    if (ahead === 0 && busy() < slotsFor(cls)) return run(req, res, cls);
    if (queuedCount >= options.maxQueued) return refuse(req, res, cls, 'queue-full', at);
    const waiting: Waiting = {
      at,
      gone: false,
      start: () => {
        res.removeListener('close', leave);
        run(req, res, cls);
      },
      refuse: (reason) => {
        res.removeListener('close', leave);
        refuse(req, res, cls, reason, at);
      },
    };
    // A client that gives up while waiting leaves the queue.
    const leave = () => {
      if (waiting.gone) return;
      waiting.gone = true;
      queuedCount--;
    };
    res.once('close', leave);
    queue.push(waiting);
    queuedCount++;
    // Refusals of a standing queue come within a few milliseconds of their deadline.
    sweeper ??= setInterval(drain, Math.max(1, Math.min(5, options.targetMs))).unref();
  };

  return {
    listener,
    limit: () => limit,
    inFlight: () => ({ ...running }),
    queued: () => ({ a: queues.a.length, c: queues.c.length }),
    stop: () => {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
    },
  };
}
