// Admission control at the door: what an instance takes on is decided from what it holds itself — requests in
// flight and how long the waiting ones have waited — not from the host's CPU (a busy neighbour, a CPU-limited
// container or one long embedded-database query must not refuse a lone user). Each request is put in a work class
// before its body is read, from the contract's operation it names — matched as the router matches it: exactly,
// case-sensitively, without a trailing slash (app.ts refuses every other spelling with 404 before any handler, see
// strict-routes.ts) — and from its bearer token, verified here (the access-token cache keeps that cheap):
//   crisis: the operations that make an alarm go off now or send a crisis message, with a bearer that verifies:
//       never refused for queue length or queue time, admitted ahead of every other class, at most
//       `crisisPerUser` in flight per user (the rest wait in order);
//   (a) signed-in users: an operation whose contract requires an access token, with one that verifies; fair per
//       user (each user's waiting requests take turns with the others'); health checks and /metrics pass without
//       a slot, so a busy instance stays in its balancer;
//   (b) argon2-bound work (password sign-in, probes, password reset and set; a sign-in whose cosafe-grant-type
//       header names a grant without a password is (c)): admitted while the hashing pool and its bounded line have
//       room (security/passwords.ts), refused at once otherwise — a wave of sign-ins fills its own line, never (a)'s
//       slots. Each client (its address key: an IPv4 address, an IPv6 network) holds at most `signInShare` places,
//       and a sign-in or probe from a client whose address lockout already refuses it (one statement, no argon2)
//       takes none: it goes on as other work, and its handler answers the lockout's 429;
//   (c) everything else (a made-up bearer, a path of no operation), which may take only part of the slots, so (a)
//       always finds one.
// How many (a) and (c) requests run at once adapts (Little's law): every quarter second the limit becomes what the
// instance completed per second times `latencyTargetMs`, between `minInFlight` and `maxInFlight`. While answers
// are quick the limit grows (throughput × target exceeds what is in flight); when the instance can do less — a
// starved CPU, a slow database — the limit shrinks until an admitted request waits about the target, instead of
// letting hundreds share a slow loop while the excess piles up unseen in socket buffers. Below `minInFlight`
// nothing is ever refused (the floor). Beyond the limit requests wait in a queue per class, (a) served first.
// The queue is CoDel-style: while it drains (a burst: a garbage-collection pause or a host stall leaves everything
// that arrived meanwhile to be read at once) a request may wait `deadlineMs`; once it stands (it has neither emptied
// nor shrunk over an interval: requests arrive faster than they leave) only `targetMs`, so under sustained overload
// the excess is refused in milliseconds instead of adding its wait to every answer.
// What the instance holds is bounded by time from when a request could have arrived, not from when it was read: a
// pause of the process (a major garbage collection, a neighbour holding the CPU, a stopped container) leaves what
// arrived meanwhile unread in socket buffers, and all of it is read at once afterwards. A clock beating every
// `beatMs` tells how long the loop did not look (a beat that comes late, or a request read while the last beat is
// overdue): a request read then is dated back to when the loop stopped looking, so one that has already waited
// longer than `deadlineMs` is refused at once (503, reason `late`) instead of being served seconds late with the
// backlog kept alive behind it — except below the floor, so a lone client is still never refused. A window of the
// adaptation that held such a stall is dropped, not learnt from: a pause is not a slower instance, and a limit
// shrunk to the floor by one would keep the backlog that follows it waiting. Stalls in three of the four windows
// before are not a pause but a starved host, and are learnt from as before. A refusal is 503
// SERVICE_UNAVAILABLE with Retry-After, from bytes made once, before the body is read, with the headers every
// answer carries (the security headers and X-Request-Id). A small declared body is then read off and dropped so the
// connection stays open (closing it would send every refused client through a new TCP handshake, a storm of them
// at overload); a large or chunked one closes the connection, so nothing is left half-read. It is counted per
// operation and summarised in the log once a second.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { contractView, type OperationInfo } from './spec';
import { shapeOf, type ErrorShape } from './error-shapes';
import { countDoorRefusal, type RefusalReason } from './refusals';
import { Counts } from './connection-share';

export type WorkClass = 'crisis' | 'a' | 'b' | 'c';

/** The caller of a verified access token, as far as the door needs it. */
export interface DoorCaller {
  /** Null for a single sign-on session bound to no user yet. */
  userId: number | null;
  sessionId: string;
  pending?: boolean;
}

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
  /**
   * The loop clock's beat: a loop that did not look for longer than two beats stalled (it dates the requests read
   * after it back, and the adaptation drops the window that held it). 20 ms if unset.
   */
  beatMs?: number;
  /** (b) requests admitted at once: the hashing pool and its line. */
  signInSlots: () => number;
  /** True while the hashing line is full. */
  hashingFull?: () => boolean;
  /** The (b) places one client may hold at once; a quarter of `signInSlots` (at least one) if unset. */
  signInShare?: number;
  /**
   * Verifies an access token (the tokens' verification cache): its caller, or a rejection. Without it no bearer
   * verifies, and there is neither class (a) nor crisis.
   */
  verifyBearer?: (token: string) => Promise<DoorCaller>;
  /**
   * Whether every sign-in from this client is refused by its lockout now (the sessions module's one statement; the
   * composition root hands it in). Without it every (b) request takes a place.
   */
  signInLockedOut?: (clientKey: string) => Promise<boolean>;
  /** The client key of a request (addressKey of the address the app sees); the socket's address if unset. */
  clientKeyOf?: (req: IncomingMessage) => string;
  /** Crisis requests one user may have in flight; the rest wait in order, never refused. 2 if unset. */
  crisisPerUser?: number;
  /** Parts of the API that answer in their own error shape (SCIM); elsewhere the platform envelope. */
  errorShapes?: readonly ErrorShape[];
  /**
   * Browser origins allowed to call the API (CORS_ORIGINS): a refusal sent to one carries its CORS headers (a
   * browser reads an answer without them as a network failure, and never sees Retry-After), and its preflight is
   * never refused (it costs no work, and without it the browser never sends the request it announces).
   */
  corsOrigins?: readonly string[];
  /** Headers every answer carries (the security headers), added to a refusal. */
  answerHeaders?: Readonly<Record<string, string>>;
}

const exempt = new Set(['/healthz', '/readyz', '/metrics']);

/** The operations whose work is argon2-bound (the hashing line); a re-authentication checks a password too. */
const argon2Bound = new Set(['createSession', 'reauthenticateSession', 'probeHash', 'resetPassword', 'setPassword']);
/** Those of them a client's address lockout refuses (the sign-in and its probe). */
const lockedOutBy = new Set(['createSession', 'probeHash']);
/**
 * The crisis operations: each can make a personal alarm go off now (created or moved to a dispatch time that has
 * come, activated past its time, sent at once by an administrator) or sends an external (crisis) message. The door
 * reads no body, so the whole operation is crisis work; the per-user bound keeps that from being a way around the
 * line.
 */
export const crisisOperations: ReadonlySet<string> = new Set([
  'createPersonalAlarm',
  'updatePersonalAlarm',
  'activatePersonalAlarm',
  'sendCecMessage',
]);

/**
 * A sign-in whose `cosafe-grant-type` names a grant that hashes no password (a passkey's signature, a coAlert code's
 * keyed hash, single sign-on's redirect) is other unauthenticated work, not the hashing line's. The handler refuses
 * a header that is not the body's grantType (400), so saying so falsely buys nothing but a quick refusal.
 */
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

interface Route {
  pattern: RegExp;
  operation: OperationInfo;
}
let routes: { byMethod: Map<string, Route[]>; paths: RegExp[] } | null = null;

/** The contract's routes, compiled once: exact, case-sensitive, a parameter one non-empty segment. */
function routeTable() {
  if (routes) return routes;
  const byMethod = new Map<string, Route[]>();
  const paths = new Map<string, RegExp>();
  for (const operation of contractView().operations.values()) {
    const method = operation.method.toUpperCase();
    const pattern = new RegExp(
      `^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
    );
    byMethod.set(method, [...(byMethod.get(method) ?? []), { pattern, operation }]);
    paths.set(operation.path, pattern);
  }
  routes = { byMethod, paths: [...paths.values()] };
  return routes;
}

/**
 * The contract operation a method and path name, matched as the router matches them (exactly, case-sensitively, no
 * trailing slash; no two operations of a method match one path, a test sees to it), or undefined.
 */
export function operationOf(method: string | undefined, path: string): OperationInfo | undefined {
  return routeTable()
    .byMethod.get(method ?? 'GET')
    ?.find((r) => r.pattern.test(path))?.operation;
}

/** Whether a path (no query) is a path of the contract, for any method. */
export const isContractPath = (path: string) => routeTable().paths.some((p) => p.test(path));

const bearerPattern = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
const bearerOf = (req: Pick<IncomingMessage, 'headers'>) => {
  const header = req.headers.authorization;
  return typeof header === 'string' ? (bearerPattern.exec(header)?.[1] ?? null) : null;
};

/** What the door decided of a request: its class, operation and who it is counted under. */
export interface Classified {
  cls: WorkClass | null;
  operation: string;
  /** The user (crisis, a) or client (b) it is counted under. */
  key: string;
}

/**
 * The work class of a request, from what arrives before its body and the caller of its bearer token (null when
 * none verifies); `cls` null: never queued nor refused.
 */
export function classify(
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  caller: DoorCaller | null = null,
): Classified {
  const path = pathOf(req.url);
  const op = operationOf(req.method, path);
  const operation = op?.operationId ?? (path.startsWith('/core/') ? 'unmatched' : 'other');
  if (exempt.has(path)) return { cls: null, operation, key: '' };
  if (!op) return { cls: 'c', operation, key: '' };
  if (argon2Bound.has(operation) && !(operation === 'createSession' && announcesNoPassword(req.headers)))
    return { cls: 'b', operation, key: '' };
  if (caller && op.security.includes('accessToken')) {
    const key = caller.userId === null ? `s:${caller.sessionId}` : `u:${caller.userId}`;
    const crisis = crisisOperations.has(operation) && caller.userId !== null && !caller.pending;
    return { cls: crisis ? 'crisis' : 'a', operation, key };
  }
  return { cls: 'c', operation, key: '' };
}

/** Whether the door verifies the request's bearer: its operation requires one and a token is there. */
const wantsVerification = (req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>) =>
  bearerOf(req) !== null && operationOf(req.method, pathOf(req.url))?.security.includes('accessToken') === true;

/** The most a refused request's body may declare and still keep its connection (it is read off and dropped). */
const keptBodyBytes = 16 * 1024;
const smallBody = (req: IncomingMessage) => {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  return length === undefined || (/^\d{1,9}$/.test(length) && Number(length) <= keptBodyBytes);
};

const busyMessage = 'The service is busy; try again in a moment';

/** A refusal's answer, made once: its headers and body bytes. */
function refusalAnswer(contentType: string, payload: unknown, answerHeaders: Readonly<Record<string, string>>) {
  const body = Buffer.from(JSON.stringify(payload));
  const headers: Record<string, string> = {
    ...answerHeaders,
    'Content-Type': contentType,
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    'Retry-After': '1',
    'X-Content-Type-Options': 'nosniff',
  };
  return { headers, body };
}

const requestIdPattern = /^[A-Za-z0-9._-]{1,64}$/;
/** The request's id, as the request log gives it (X-Request-Id when the caller sent a usable one, or a new UUID). */
const requestIdOf = (req: IncomingMessage) => {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
};

interface Waiting {
  at: number;
  key: string;
  start: () => void;
  refuse: (reason: RefusalReason) => void;
  gone: boolean;
}

/**
 * A class's waiting requests: one line per key (a user; (c) has one key), served in turns, each line in order.
 * Its length counts requests that gave up until they are skipped.
 */
class Queue {
  private lines = new Map<string, Waiting[]>();
  /** Keys with waiting requests, in the order they take turns. */
  private turns: string[] = [];
  length = 0;
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
  push(w: Waiting) {
    const line = this.lines.get(w.key);
    if (line) line.push(w);
    else {
      this.lines.set(w.key, [w]);
      this.turns.push(w.key);
    }
    this.length++;
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
  /** The next request to serve: the head of the line whose turn it is (requests that gave up are dropped). */
  peek(): Waiting | undefined {
    while (this.turns.length) {
      const key = this.turns[0];
      const line = this.lines.get(key)!;
      while (line.length && line[0].gone) {
        line.shift();
        this.length--;
      }
      if (line.length) return line[0];
      this.lines.delete(key);
      this.turns.shift();
    }
    if (this.length === 0) this.emptied();
    return undefined;
  }
  /** Takes the next request; its line's turn passes to the next key. */
  shift(): Waiting | undefined {
    const w = this.peek();
    if (!w) return undefined;
    const key = this.turns.shift()!;
    const line = this.lines.get(key)!;
    line.shift();
    this.length--;
    if (line.length) this.turns.push(key);
    else this.lines.delete(key);
    if (this.length === 0) this.emptied();
    return w;
  }
  /** Takes every line's requests that waited longer than `maxWaitMs` (each line is in order: only its front). */
  expired(now: number, maxWaitMs: number): Waiting[] {
    const out: Waiting[] = [];
    for (const [key, line] of this.lines) {
      while (line.length && (line[0].gone || now - line[0].at > maxWaitMs)) {
        const w = line.shift()!;
        this.length--;
        if (!w.gone) out.push(w);
      }
      if (!line.length) {
        this.lines.delete(key);
        this.turns.splice(this.turns.indexOf(key), 1);
      }
    }
    if (this.length === 0) this.emptied();
    return out;
  }
  private emptied() {
    this.standing = false;
    this.markAt = null;
    this.previousLowest = null;
  }
}

export interface Admission {
  listener: RequestListener;
  /** The (a) and (c) requests admitted at once now. */
  limit(): number;
  inFlight(): { crisis: number; a: number; b: number; c: number };
  queued(): { crisis: number; a: number; c: number };
  stop(): void;
}

/** The bits set in a small number. */
const bitsOf = (n: number) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1);

/** Wraps the app with admission control (see the top of this file). */
export function admit(app: RequestListener, options: AdmissionOptions, logger: Logger): Admission {
  const shapes = options.errorShapes ?? [];
  const answerHeaders = options.answerHeaders ?? {};
  const platformRefusal = refusalAnswer(
    'application/json; charset=utf-8',
    new ApiError('SERVICE_UNAVAILABLE', { message: busyMessage }).toBody(),
    answerHeaders,
  );
  // A part of the API with its own error shape (SCIM) is refused in it; each answer is made once.
  const shapedRefusals = new Map(
    shapes.map((shape) => [shape, refusalAnswer(shape.contentType, shape.body(503, busyMessage), answerHeaders)]),
  );
  const refusalFor = (path: string) =>
    (shapes.length ? shapedRefusals.get(shapeOf(shapes, path)!) : undefined) ?? platformRefusal;
  const allowedOrigins = new Set(options.corsOrigins ?? []);
  const allowedOrigin = (req: IncomingMessage) =>
    typeof req.headers.origin === 'string' && allowedOrigins.has(req.headers.origin) ? req.headers.origin : null;
  const clientKeyOf = options.clientKeyOf ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown');
  const signInShare = () => options.signInShare ?? Math.max(1, Math.floor(options.signInSlots() / 4));
  const crisisPerUser = options.crisisPerUser ?? 2;
  const running = { crisis: 0, a: 0, b: 0, c: 0 };
  const queues = { a: new Queue(), c: new Queue() };
  /** (b) places and lockout checks per client; crisis requests in flight and waiting per user. */
  const signInsOf = new Counts();
  const crisisOf = new Counts();
  const crisisWaiting = new Map<string, Waiting[]>();
  let crisisQueued = 0;
  let queuedCount = 0;
  let sweeper: NodeJS.Timeout | null = null;
  let limit = options.maxInFlight;
  let completed = 0;
  let windowStart = performance.now();
  // The loop clock (see the top of this file): when the loop last looked, and the stalls seen.
  const beatMs = options.beatMs ?? 20;
  let lastBeat = performance.now();
  /** Set by a late beat until the loop's next check phase: where the stall it saw began. */
  let stallBegan: number | null = null;
  let stalls = 0;
  let windowStalls = 0;
  /** Whether each of the last four windows held a stall (a bit each, the newest lowest). */
  let recentStalls = 0;
  /** The last beat before the stall a request read noted, and when that read came (the loop looked again). */
  let stallNotedAt = -1;
  let resumedAt = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    if (now - lastBeat > 2 * beatMs) {
      // What this turn's poll phase reads (after this timer) arrived since the loop last looked: the stall's start,
      // or, when a request read earlier saw the stall, that read.
      const noted = stallNotedAt === lastBeat;
      stallBegan = noted ? resumedAt : lastBeat;
      if (!noted) stalls++;
      setImmediate(() => (stallBegan = null));
    }
    lastBeat = now;
  }, beatMs).unref();
  /**
   * When a request read at `now` may have arrived: `now` while the loop looks every beat; after a stall, when the
   * loop stopped looking (plus one beat, its normal lateness).
   */
  const arrivedBy = (now: number) => {
    const unseen = unseenFor(now);
    return unseen <= 0 ? now : now - unseen;
  };
  /** How long the loop did not look before `now`, beyond a beat; a stall (over a beat more) is counted once. */
  const unseenFor = (now: number) => {
    const since = stallBegan ?? lastBeat;
    const unseen = now - since - beatMs;
    if (unseen > beatMs && stallBegan === null && stallNotedAt !== since) {
      stallNotedAt = since;
      resumedAt = now;
      stalls++;
    }
    return unseen;
  };
  /** Little's law, once a quarter second: the limit follows what the instance completes. */
  const adapt = (now: number) => {
    const elapsed = now - windowStart;
    if (elapsed < 250) return;
    // A window that held a stall of the loop measured the stall, not the instance: dropped — unless three of the
    // four windows before it held one too: a host that keeps starving the loop leaves an instance that does less,
    // and the limit follows that.
    unseenFor(now);
    const stalled = stalls !== windowStalls;
    windowStalls = stalls;
    const starving = bitsOf(recentStalls) >= 3;
    recentStalls = ((recentStalls << 1) | (stalled ? 1 : 0)) & 0b1111;
    if (stalled && !starving) {
      completed = 0;
      windowStart = now;
      return;
    }
    const fitting = Math.ceil(((completed * 1_000) / elapsed) * (options.latencyTargetMs / 1_000));
    limit = Math.min(options.maxInFlight, Math.max(options.minInFlight, fitting));
    completed = 0;
    windowStart = now;
  };
  // (c) may hold at most three quarters of the slots: a signed-in user's request always finds one soon.
  const slotsFor = (cls: 'a' | 'c') => (cls === 'a' ? limit : Math.max(1, Math.floor(limit * 0.75)));
  // Crisis requests run beyond the limit, and every one in flight holds a slot of the others.
  const busy = () => running.crisis + running.a + running.c;

  const intervalMs = options.intervalMs ?? options.deadlineMs;
  const wait = (queue: Queue) => (queue.standing ? options.targetMs : options.deadlineMs);

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    doorClass: Classified,
    reason: RefusalReason,
    at: number,
  ) => {
    if (res.headersSent || res.destroyed) return;
    countDoorRefusal(logger, doorClass.operation, doorClass.cls ?? 'c', reason, at);
    // The body is not read before the answer. A small declared one is read off and dropped after it (Node does that
    // for an unread body of a kept-alive connection); a large or chunked one closes the connection.
    if (!smallBody(req)) res.shouldKeepAlive = false;
    const answer = refusalFor(pathOf(req.url));
    const origin = allowedOrigin(req);
    const headers = { ...answer.headers, 'x-request-id': requestIdOf(req) };
    res.writeHead(
      503,
      origin === null
        ? headers
        : {
            ...headers,
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Expose-Headers': 'retry-after, x-request-id',
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
      for (const late of queue.expired(now, wait(queue))) {
        queuedCount--;
        late.refuse('queue-timeout');
      }
      for (let next = queue.peek(); next; next = queue.peek()) {
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

  /** Starts the next waiting crisis request of a user, if any. */
  const nextCrisis = (key: string) => {
    const line = crisisWaiting.get(key);
    while (line?.length) {
      const w = line.shift()!;
      crisisQueued--;
      if (!line.length) crisisWaiting.delete(key);
      if (!w.gone) return w.start();
    }
  };

  const run = (req: IncomingMessage, res: ServerResponse, doorClass: Classified & { cls: WorkClass }) => {
    const { cls, key } = doorClass;
    running[cls]++;
    if (cls === 'b') signInsOf.add(key);
    if (cls === 'crisis') crisisOf.add(key);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      res.removeListener('finish', done);
      res.removeListener('close', done);
      running[cls]--;
      if (cls === 'b') signInsOf.remove(key);
      if (cls === 'crisis') {
        crisisOf.remove(key);
        nextCrisis(key);
      }
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

  /** A crisis request: at once while its user has fewer than `crisisPerUser` in flight, else in its user's line. */
  const admitCrisis = (req: IncomingMessage, res: ServerResponse, doorClass: Classified & { cls: WorkClass }) => {
    if (crisisOf.get(doorClass.key) < crisisPerUser && !crisisWaiting.has(doorClass.key))
      return run(req, res, doorClass);
    const waiting: Waiting = {
      at: performance.now(),
      key: doorClass.key,
      gone: false,
      start: () => {
        res.removeListener('close', leave);
        run(req, res, doorClass);
      },
      refuse: () => undefined,
    };
    const leave = () => void (waiting.gone = true);
    res.once('close', leave);
    const line = crisisWaiting.get(doorClass.key);
    if (line) line.push(waiting);
    else crisisWaiting.set(doorClass.key, [waiting]);
    crisisQueued++;
  };

  /** An (a) or (c) request: a slot now, a place in its queue, or a refusal. */
  const admitGeneral = (
    req: IncomingMessage,
    res: ServerResponse,
    doorClass: Classified & { cls: 'a' | 'c' },
    at: number,
  ) => {
    const { cls } = doorClass;
    const queue = queues[cls];
    const ahead = cls === 'a' ? queue.length : queue.length + queues.a.length;
    // Above the floor, a request that already waited unread beyond the deadline (a stall) is refused at once.
    const late = performance.now() - at > options.deadlineMs && busy() >= options.minInFlight;
    if (ahead === 0 && busy() < slotsFor(cls) && !late) return run(req, res, doorClass);
    if (late) return refuse(req, res, doorClass, 'late', at);
    if (queuedCount >= options.maxQueued) return refuse(req, res, doorClass, 'queue-full', at);
    const waiting: Waiting = {
      at,
      key: doorClass.key,
      gone: false,
      start: () => {
        res.removeListener('close', leave);
        run(req, res, doorClass);
      },
      refuse: (reason) => {
        res.removeListener('close', leave);
        refuse(req, res, doorClass, reason, at);
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

  /** A (b) request: within its client's share, past its lockout, and while the hashing line has room. */
  const admitSignIn = (req: IncomingMessage, res: ServerResponse, doorClass: Classified & { cls: 'b' }, at: number) => {
    const client = clientKeyOf(req);
    const counted = { ...doorClass, key: client };
    if (signInsOf.get(client) >= signInShare()) return refuse(req, res, counted, 'client-share', at);
    const take = () => {
      if (running.b >= options.signInSlots() || options.hashingFull?.())
        return refuse(req, res, counted, 'sign-in-queue-full', at);
      run(req, res, counted);
    };
    if (!options.signInLockedOut || !lockedOutBy.has(doorClass.operation)) return take();
    // The check holds a place of the client's share (not of the line) while it runs.
    signInsOf.add(client);
    void options.signInLockedOut(client).then(
      (locked) => {
        signInsOf.remove(client);
        if (res.destroyed) return;
        // Refused by its lockout: no place in the line; its handler answers the lockout (one statement).
        if (locked) return admitGeneral(req, res, { ...doorClass, cls: 'c', key: '' }, at);
        take();
      },
      () => {
        signInsOf.remove(client);
        if (!res.destroyed) take();
      },
    );
  };

  const admitClassified = (req: IncomingMessage, res: ServerResponse, doorClass: Classified, at: number) => {
    const { cls } = doorClass;
    if (cls === null) return app(req, res);
    // A client gone while its token was verified leaves nothing to serve (its close will not come again).
    if (res.destroyed) return;
    if (cls === 'crisis') return admitCrisis(req, res, { ...doorClass, cls });
    if (cls === 'b') return admitSignIn(req, res, { ...doorClass, cls }, at);
    admitGeneral(req, res, { ...doorClass, cls }, at);
  };

  const listener: RequestListener = (req, res) => {
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] && allowedOrigin(req) !== null)
      return app(req, res);
    const at = arrivedBy(performance.now());
    const token = options.verifyBearer && wantsVerification(req) ? bearerOf(req) : null;
    if (token === null) return admitClassified(req, res, classify(req), at);
    void options.verifyBearer!(token).then(
      (caller) => admitClassified(req, res, classify(req, caller), at),
      () => admitClassified(req, res, classify(req), at),
    );
  };

  return {
    listener,
    limit: () => limit,
    inFlight: () => ({ ...running }),
    queued: () => ({ crisis: crisisQueued, a: queues.a.length, c: queues.c.length }),
    stop: () => {
      clearInterval(beat);
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
    },
  };
}
