// Admission control at the door (http/admission.ts): work classes, the floor, the CoDel-style queue, the
// sign-in line, the crisis class, refusals answered before the body is read, counted per operation and summarised
// once a second.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { admit, classify, type Admission, type AdmissionOptions, type DoorCaller } from '../../src/http/admission';
import { createLogger } from '../../src/logger';
import { registry } from '../../src/metrics/metrics';
import { Gate } from '../../src/security/passwords';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tokens the doors of these tests verify: `some-token` is user 1's, `user-<n>` user n's; nothing else verifies. */
const verifyBearer = async (token: string): Promise<DoorCaller> => {
  if (token === 'some-token') return { userId: 1, sessionId: 's1' };
  const user = /^user-(\d+)$/.exec(token);
  if (user) return { userId: Number(user[1]), sessionId: `s${user[1]}` };
  throw new Error('not valid');
};

/** An app that holds every request until released (health checks answer at once). */
function heldApp() {
  const held: { path: string; release: () => void }[] = [];
  const seen: string[] = [];
  const app = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '');
    if (req.url === '/readyz' || req.url === '/healthz') return void res.end('{"status":"ok"}');
    held.push({ path: req.url ?? '', release: () => res.end('{}') });
  };
  return { app, held, seen };
}

interface Door {
  base: string;
  port: number;
  admission: Admission;
  held: { path: string; release: () => void }[];
  seen: string[];
  logs: string[];
  close(): Promise<void>;
}

async function door(options: Partial<AdmissionOptions>): Promise<Door> {
  const logs: string[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _e, done) {
        logs.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    }),
  );
  const { app, held, seen } = heldApp();
  const admission = admit(
    app,
    {
      minInFlight: options.maxInFlight ?? 4,
      maxInFlight: 4,
      latencyTargetMs: 100,
      maxQueued: 8,
      // Far from the waits of the tests that are not about the deadline, so a loaded machine (a mutation run, two
      // Jest workers) does not turn a queued request into a refusal; the deadline's own tests set theirs.
      deadlineMs: 2_000,
      targetMs: 20,
      signInSlots: () => 2,
      verifyBearer,
      ...options,
    },
    logger,
  );
  const server: Server = http.createServer(admission.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    admission,
    held,
    seen,
    logs,
    close: async () => {
      held.splice(0).forEach((h) => h.release());
      admission.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const bearer = { authorization: 'Bearer some-token' };
const get = (d: Door, path: string, headers: Record<string, string> = bearer) =>
  fetch(`${d.base}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
const post = (d: Door, path: string) =>
  fetch(`${d.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
/** Releases held requests until every one of `answers` has come. */
async function finish(d: Door, answers: Promise<Response>[]): Promise<Response[]> {
  let done = false;
  const all = Promise.all(answers).finally(() => (done = true));
  while (!done) {
    d.held.splice(0).forEach((h) => h.release());
    await sleep(5);
  }
  return all;
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 500 && !what(); i++) await sleep(5);
  expect(what()).toBe(true);
};

describe('work classes', () => {
  const c = (method: string, url: string, headers: Record<string, string> = {}) =>
    classify(
      { method, url, headers },
      headers.authorization === bearer.authorization ? { userId: 1, sessionId: 's' } : null,
    ).cls;
  test('signed-in users, argon2-bound work, everything else; health checks and metrics pass', () => {
    expect(c('GET', '/core/v1/tenants', bearer)).toBe('a');
    // A refresh presents a refresh token, which only the database can check: other work.
    expect(c('PUT', '/core/v1/sessions/abc', bearer)).toBe('c');
    expect(c('DELETE', '/core/v1/sessions/abc', bearer)).toBe('a');
    expect(c('GET', '/core/v1/personal-alarms/5', bearer)).toBe('a');
    expect(c('GET', '/core/v1/external-communications/messages', bearer)).toBe('a');
    expect(c('POST', '/core/v1/sessions')).toBe('b');
    expect(c('POST', '/core/v1/sessions?x=1')).toBe('b');
    expect(c('POST', '/core/v1/probes/hash/abcdef')).toBe('b');
    expect(c('POST', '/core/v1/users/12/password-reset')).toBe('b');
    expect(c('POST', '/core/v1/users/12/password-set')).toBe('b');
    expect(c('GET', '/core/v1/users/12/password-set')).toBe('c');
    expect(c('POST', '/core/v1/users/password-reset')).toBe('c');
    expect(c('GET', '/core/v1/tenants')).toBe('c');
    expect(c('GET', '/core/v1/tenants', { authorization: 'Bearer ' })).toBe('c');
    expect(c('GET', '/core/v1/scim/v2/Users', bearer)).toBe('c');
    expect(c('GET', '/docs')).toBe('c');
    for (const path of ['/healthz', '/readyz', '/metrics', '/metrics?x=1']) expect(c('GET', path)).toBeNull();
  });

  test("passkeys: enrolment is a signed-in user's, the options and a grant announced without a password are other work", () => {
    expect(c('POST', '/core/v1/passkeys/registration-options', bearer)).toBe('a');
    expect(c('POST', '/core/v1/passkeys', bearer)).toBe('a');
    expect(c('DELETE', '/core/v1/passkeys/0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11', bearer)).toBe('a');
    expect(c('POST', '/core/v1/passkeys/authentication-options')).toBe('c');
    expect(c('POST', '/core/v1/sessions', { 'cosafe-grant-type': 'passkey' })).toBe('c');
    expect(c('POST', '/core/v1/sessions', { 'cosafe-grant-type': 'coAlertCode' })).toBe('c');
    expect(c('POST', '/core/v1/sessions', { 'cosafe-grant-type': 'password' })).toBe('b');
    expect(c('POST', '/core/v1/sessions', { 'cosafe-grant-type': 'anything' })).toBe('b');
    expect(c('POST', '/core/v1/probes/hash/abcdef', { 'cosafe-grant-type': 'passkey' })).toBe('b');
  });
});

describe('class (a): signed-in users', () => {
  let d: Door;
  beforeEach(async () => (d = await door({})));
  afterEach(() => d.close());

  test('below the in-flight floor nothing is refused; beyond it a request waits for a slot and is served', async () => {
    const first = [1, 2, 3, 4].map(() => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4);
    const fifth = get(d, '/core/v1/tenants');
    await until(() => d.admission.queued().a === 1);
    d.held.shift()!.release();
    await until(() => d.held.length === 4);
    d.held.splice(0).forEach((h) => h.release());
    expect((await Promise.all([...first, fifth])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(d.admission.inFlight()).toEqual({ crisis: 0, a: 0, b: 0, c: 0 });
  });

  test('a full queue is refused at once: 503 SERVICE_UNAVAILABLE, Retry-After, no-store; the app never sees it', async () => {
    await d.close();
    d = await door({ deadlineMs: 10_000 });
    const all = Array.from({ length: 12 }, () => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4 && d.admission.queued().a === 8);
    const started = performance.now();
    const refused = await get(d, '/core/v1/tenants');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({
      status: 'error',
      error: expect.objectContaining({ httpStatus: 503, code: 'SERVICE_UNAVAILABLE' }),
    });
    expect(d.seen).toHaveLength(4);
    // Health checks pass while every slot is taken.
    expect((await get(d, '/readyz', {})).status).toBe(200);
    expect((await finish(d, all)).map((r) => r.status)).toEqual(Array(12).fill(200));
  });

  test('CoDel: a burst may wait the deadline; once the queue has stood that long, only the target', async () => {
    await d.close();
    d = await door({ deadlineMs: 1_000, targetMs: 20 });
    const holders = [1, 2, 3, 4].map(() => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4);
    const started = performance.now();
    const burst = await get(d, '/core/v1/tenants');
    const burstWait = performance.now() - started;
    expect(burst.status).toBe(503);
    expect(burstWait).toBeGreaterThanOrEqual(980);
    // A standing queue: a newcomer every 10 ms for 2 s while every slot stays taken. The first ones wait the
    // deadline; once the queue has not emptied for that long, each is refused after about the target.
    const waits: Promise<number>[] = [];
    for (let i = 0; i < 200; i++) {
      const sent = performance.now();
      waits.push(get(d, '/core/v1/tenants').then((r) => (expect(r.status).toBe(503), performance.now() - sent)));
      await sleep(10);
    }
    const all = await Promise.all(waits);
    expect(all[0]).toBeGreaterThanOrEqual(980);
    const late = all.slice(-40).sort((a, b) => a - b);
    expect(late[20]).toBeLessThan(500);
    d.held.splice(0).forEach((h) => h.release());
    await Promise.all(holders);
  });

  test('a queue that keeps shrinking is a burst, not standing, however long it takes to empty', async () => {
    // After a pause (garbage collection, a host stall) everything that arrived meanwhile is read at once: the queue
    // is long, and new requests keep joining it while it drains. It stays non-empty for longer than the deadline,
    // but it shrinks interval after interval, so each request may still wait the deadline; only a queue that does
    // not shrink is standing.
    await d.close();
    d = await door({ deadlineMs: 1_000, targetMs: 20, intervalMs: 250, maxQueued: 20 });
    const answers = [1, 2, 3, 4].map(() => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4);
    answers.push(...Array.from({ length: 12 }, () => get(d, '/core/v1/tenants')));
    await until(() => d.admission.queued().a === 12);
    // Every 125 ms four answers leave and three requests join: one fewer each step, 1.5 s to empty (longer than the
    // deadline), while each request waits about three steps (375 ms, well inside it, even when a loaded machine
    // stretches a step).
    for (let step = 0; step < 12; step++) {
      await sleep(125);
      d.held.splice(0, 4).forEach((h) => h.release());
      answers.push(...[1, 2, 3].map(() => get(d, '/core/v1/tenants')));
    }
    const all = await finish(d, answers);
    expect(all.map((r) => r.status)).toEqual(Array(52).fill(200));
  });

  test('a client that gives up while waiting leaves the queue', async () => {
    const holders = [1, 2, 3, 4].map(() => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4);
    const gaveUp = new AbortController();
    const waiting = fetch(`${d.base}/core/v1/tenants`, { headers: bearer, signal: gaveUp.signal }).catch(() => null);
    await until(() => d.admission.queued().a === 1);
    gaveUp.abort();
    await waiting;
    await sleep(50);
    d.held.splice(0).forEach((h) => h.release());
    await Promise.all(holders);
    expect(d.seen).toHaveLength(4);
  });
});

describe('the adaptive limit', () => {
  test('follows what the instance completes: shrinks to the floor when answers slow down, grows when they are quick', async () => {
    let delayMs = 200;
    const logger = createLogger('silent');
    const admission = admit(
      (_req, res) => void setTimeout(() => res.end('{}'), delayMs),
      {
        minInFlight: 2,
        maxInFlight: 64,
        latencyTargetMs: 100,
        maxQueued: 1_000,
        deadlineMs: 5_000,
        targetMs: 5_000,
        signInSlots: () => 2,
      },
      logger,
    );
    const server = http.createServer(admission.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clients = async (n: number, ms: number) => {
      const end = performance.now() + ms;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: n }, async () => {
          while (performance.now() < end) statuses.push((await fetch(`${base}/x`, { headers: bearer })).status);
        }),
      );
      return statuses;
    };
    try {
      expect(admission.limit()).toBe(64);
      // 16 clients, 200 ms per answer: 80 complete a second, × 100 ms = 8; then 40/s → 4; then the floor, 2.
      expect((await clients(16, 2_500)).every((s) => s === 200)).toBe(true);
      expect(admission.limit()).toBe(2);
      // Quick answers: what completes grows with the limit, the limit with what completes.
      delayMs = 1;
      await clients(16, 1_500);
      expect(admission.limit()).toBeGreaterThan(4);
    } finally {
      admission.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('class (c): everything else', () => {
  let d: Door;
  beforeEach(async () => (d = await door({})));
  afterEach(() => d.close());

  test('takes at most three quarters of the slots, so a signed-in user always finds one', async () => {
    const others = Array.from({ length: 5 }, () => get(d, '/core/v1/tenants', {}));
    await until(() => d.held.length === 3 && d.admission.queued().c === 2);
    const signedIn = get(d, '/core/v1/groups');
    await until(() => d.held.length === 4);
    expect(d.held[3].path).toBe('/core/v1/groups');
    d.held.splice(0).forEach((h) => h.release());
    await until(() => d.held.length === 2);
    d.held.splice(0).forEach((h) => h.release());
    expect((await signedIn).status).toBe(200);
    expect((await Promise.all(others)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  test('queued signed-in requests go before queued others', async () => {
    const holders = Array.from({ length: 4 }, () => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 4);
    const other = get(d, '/core/v1/other', {});
    await until(() => d.admission.queued().c === 1);
    const signedIn = get(d, '/core/v1/groups');
    await until(() => d.admission.queued().a === 1);
    d.held.shift()!.release();
    await until(() => d.held.length === 4);
    expect(d.held[3].path).toBe('/core/v1/groups');
    d.held.splice(0).forEach((h) => h.release());
    await until(() => d.held.length === 1);
    d.held.splice(0).forEach((h) => h.release());
    await Promise.all([...holders, other, signedIn]);
  });
});

describe('class (b): argon2-bound work', () => {
  let d: Door;
  beforeEach(async () => (d = await door({ signInShare: 2 })));
  afterEach(() => d.close());

  test('a wave of sign-ins fills its own line and is refused at once; signed-in users are served meanwhile', async () => {
    const signIns = Array.from({ length: 6 }, () => post(d, '/core/v1/sessions'));
    const answers = await Promise.all(signIns.slice(2));
    expect(answers.map((r) => r.status)).toEqual([503, 503, 503, 503]);
    expect(answers[0].headers.get('retry-after')).toBe('1');
    expect(d.admission.inFlight().b).toBe(2);
    const reads = [1, 2, 3, 4].map(() => get(d, '/core/v1/tenants'));
    await until(() => d.held.length === 6);
    d.held.splice(0).forEach((h) => h.release());
    expect((await Promise.all(reads)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await Promise.all(signIns.slice(0, 2))).map((r) => r.status)).toEqual([200, 200]);
  });

  test('refused while the hashing line is full, even with a sign-in slot free', async () => {
    let full = true;
    const gated = await door({ hashingFull: () => full });
    try {
      expect((await post(gated, '/core/v1/probes/hash/abc')).status).toBe(503);
      full = false;
      const served = post(gated, '/core/v1/probes/hash/abc');
      await until(() => gated.held.length === 1);
      gated.held.splice(0).forEach((h) => h.release());
      expect((await served).status).toBe(200);
    } finally {
      await gated.close();
    }
  });

  test('the hashing pool holds a bounded line: beyond it the work is refused with a time to retry', async () => {
    const gate = new Gate(1, 1);
    const release: (() => void)[] = [];
    const task = () => new Promise<string>((resolve) => release.push(() => resolve('done')));
    const running = gate.run(task);
    const waiting = gate.run(task);
    expect(gate.full).toBe(true);
    await expect(gate.run(task)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      httpStatus: 503,
      unavailableUntil: expect.any(Date),
    });
    release.shift()!();
    await expect(running).resolves.toBe('done');
    await until(() => release.length === 1);
    release.shift()!();
    await expect(waiting).resolves.toBe('done');
    expect(gate.full).toBe(false);
  });
});

/** A POST whose body is announced by `bodyHeader` and never sent: what arrives until the connection closes. */
const refusedWithBodyWithheld = (d: Door, bodyHeader: string) =>
  new Promise<string>((resolve, reject) => {
    let received = '';
    const head = ['POST /core/v1/groups HTTP/1.1', 'Host: 127.0.0.1', 'Authorization: Bearer x'];
    const socket = connect(d.port, '127.0.0.1', () =>
      socket.write([...head, 'Content-Type: application/json', bodyHeader, '', ''].join('\r\n')),
    );
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer while the body was withheld: ${received}`)), 5_000).unref();
  });

describe('refusals', () => {
  let d: Door;
  beforeEach(async () => (d = await door({ maxInFlight: 1, maxQueued: 0 })));
  afterEach(() => d.close());

  test('answered before the body is read, and the connection closes after the answer', async () => {
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const answer = await refusedWithBodyWithheld(d, 'Content-Length: 100000');
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/retry-after: 1/i);
    expect(answer).toMatch(/connection: close/i);
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });

  test('a small declared body is read off after the answer and the connection stays open for the next request', async () => {
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const body = JSON.stringify({ name: 'x'.repeat(200) });
    const request = [
      'POST /core/v1/groups HTTP/1.1',
      'Host: 127.0.0.1',
      'Authorization: Bearer x',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      '',
      body,
    ].join('\r\n');
    const answers = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(d.port, '127.0.0.1', () => socket.write(request));
      socket.on('data', (chunk) => {
        received += chunk;
        const count = received.match(/HTTP\/1\.1 503/g)?.length ?? 0;
        // The first refusal came on a connection still open: the same socket carries a second request.
        if (count === 1 && !received.includes('second-sent')) {
          received += 'second-sent';
          socket.write(request);
        }
        if (count === 2) {
          socket.end();
          resolve(received);
        }
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no second answer on the connection: ${received}`)), 5_000).unref();
    });
    expect(answers.match(/HTTP\/1\.1 503/g)).toHaveLength(2);
    expect(answers).toMatch(/connection: keep-alive/i);
    expect(answers).not.toMatch(/connection: close/i);
    expect(d.seen).toHaveLength(1);
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });

  test('a chunked body closes the connection after the answer too', async () => {
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const answer = await refusedWithBodyWithheld(d, 'Transfer-Encoding: chunked');
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/connection: close/i);
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });

  test('counted per operation and status, and summarised in one warn line a second, not one line each', async () => {
    const metric = async () =>
      (await registry.getSingleMetricAsString('core_http_requests_total'))
        .split('\n')
        .find((l) => l.includes('operation="listTenants"') && l.includes('status="503"'));
    const before = Number((await metric())?.split(' ').pop() ?? 0);
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const refused = await Promise.all(Array.from({ length: 30 }, () => get(d, '/core/v1/tenants')));
    expect(refused.every((r) => r.status === 503)).toBe(true);
    expect(Number((await metric())?.split(' ').pop())).toBe(before + 30);
    expect(await registry.getSingleMetricAsString('core_admission_refusals_total')).toMatch(
      /operation="listTenants",class="a",reason="queue-full"} \d+/,
    );
    expect(d.logs).toEqual([]);
    await sleep(1_200);
    const lines = d.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, refused: 30, byOperation: { 'listTenants 503': 30 } });
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });
});

/** A request from a chosen loopback address (127.0.0.0/8): its status and headers once answered. */
const sendFrom = (d: Door, from: string, method: string, path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method, path, localAddress: from, agent: false, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe('attacks on the door', () => {
  let d: Door;
  afterEach(() => d.close());
  const made = { authorization: 'Bearer made-up.token.value' };

  test('a flood on other spellings of the sign-in with a made-up bearer takes no signed-in slot (other work, 404 by the app)', async () => {
    d = await door({});
    const spellings = [
      '/core/v1/sessions/',
      '/CORE/V1/SESSIONS',
      '/core/v1/Sessions',
      '/core/v1/probes/hash/abcdef/',
      '/core/v1/users/12/password-reset/',
      '/core/v1/users/12/PASSWORD-SET',
    ];
    const flood = spellings.map((path) =>
      fetch(`${d.base}${path}`, { method: 'POST', headers: made, signal: AbortSignal.timeout(10_000) }),
    );
    // Other work holds at most three of the four slots; the rest wait in its queue.
    await until(() => d.held.length === 3 && d.admission.queued().c === 3);
    expect(d.admission.inFlight()).toEqual({ crisis: 0, a: 0, b: 0, c: 3 });
    const signedIn = get(d, '/core/v1/groups');
    await until(() => d.held.length === 4);
    expect(d.held[3].path).toBe('/core/v1/groups');
    expect((await finish(d, [...flood, signedIn])).map((r) => r.status)).toEqual(Array(7).fill(200));
  });

  test('a made-up bearer buys no signed-in slot; a bearer on an operation without bearer security neither', async () => {
    d = await door({});
    const flood = [1, 2, 3, 4, 5].map(() => get(d, '/core/v1/tenants', made));
    await until(() => d.held.length === 3 && d.admission.queued().c === 2);
    const unsecured = get(d, '/core/v1/probes/idpDomain/example.com', bearer);
    await until(() => d.admission.queued().c === 3);
    const signedIn = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 4);
    expect(d.held[3].path).toBe('/core/v1/tenants');
    expect(d.admission.inFlight()).toMatchObject({ a: 1, c: 3 });
    await finish(d, [...flood, unsecured, signedIn]);
  });

  test("one user's flood does not keep another signed-in user waiting behind it: waiting users take turns", async () => {
    d = await door({ maxQueued: 20 });
    const one = { authorization: 'Bearer user-1' };
    const answers = Array.from({ length: 10 }, () => get(d, '/core/v1/tenants', one));
    await until(() => d.held.length === 4 && d.admission.queued().a === 6);
    const other = get(d, '/core/v1/groups', { authorization: 'Bearer user-2' });
    await until(() => d.admission.queued().a === 7);
    // Two answers leave: user 1's next, then user 2's (not user 1's six first).
    d.held.splice(0, 2).forEach((h) => h.release());
    await until(() => d.held.length === 4);
    expect(d.held.map((h) => h.path)).toContain('/core/v1/groups');
    await finish(d, [...answers, other]);
  });

  test('under a flood that makes the door refuse signed-in and other work, a panic alarm is accepted', async () => {
    d = await door({ maxInFlight: 1, maxQueued: 0 });
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    // The door refuses everything else at once.
    expect((await get(d, '/core/v1/groups')).status).toBe(503);
    expect((await get(d, '/core/v1/tenants', {})).status).toBe(503);
    const panic = { authorization: 'Bearer user-7', 'content-type': 'application/json' };
    const alarm = fetch(`${d.base}/core/v1/personal-alarms/5/activate`, { method: 'POST', headers: panic });
    const created = fetch(`${d.base}/core/v1/personal-alarms`, { method: 'POST', headers: panic, body: '{}' });
    const crisisMessage = fetch(`${d.base}/core/v1/external-communications/messages`, {
      method: 'POST',
      headers: { ...panic, authorization: 'Bearer user-8' },
      body: '{}',
    });
    await until(() => d.held.length === 4);
    expect(d.admission.inFlight()).toMatchObject({ crisis: 3 });
    expect((await finish(d, [holder, alarm, created, crisisMessage])).map((r) => r.status)).toEqual([
      200, 200, 200, 200,
    ]);
  });

  test("crisis work is bounded per user: beyond a few in flight one user's wait in order, never refused", async () => {
    d = await door({ maxInFlight: 1, maxQueued: 0, crisisPerUser: 2 });
    const panic = { authorization: 'Bearer user-7' };
    const alarms = [1, 2, 3, 4].map((id) =>
      fetch(`${d.base}/core/v1/personal-alarms/${id}/activate`, { method: 'POST', headers: panic }),
    );
    await until(() => d.held.length === 2 && d.admission.queued().crisis === 2);
    // Another user's alarm is not held back by user 7's.
    const other = fetch(`${d.base}/core/v1/personal-alarms/9/activate`, {
      method: 'POST',
      headers: { authorization: 'Bearer user-8' },
    });
    await until(() => d.held.length === 3);
    d.held.shift()!.release();
    await until(() => d.held.length === 3);
    expect(d.held.map((h) => h.path)).toEqual([
      '/core/v1/personal-alarms/2/activate',
      '/core/v1/personal-alarms/9/activate',
      '/core/v1/personal-alarms/3/activate',
    ]);
    expect((await finish(d, [...alarms, other])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  test('a made-up bearer on a crisis operation is other work, refused like it', async () => {
    d = await door({ maxInFlight: 1, maxQueued: 0 });
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const refused = await fetch(`${d.base}/core/v1/personal-alarms/5/activate`, { method: 'POST', headers: made });
    expect(refused.status).toBe(503);
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });

  test('one locked-out address takes no place in the sign-in line, and holds at most its share of it', async () => {
    const checked: string[] = [];
    d = await door({
      signInSlots: () => 4,
      signInLockedOut: async (client) => (checked.push(client), client === '127.0.0.2'),
    });
    const locked = Array.from({ length: 50 }, () => sendFrom(d, '127.0.0.2', 'POST', '/core/v1/sessions'));
    // Every one of them goes on as other work (its handler answers the lockout): no sign-in place is taken.
    await until(() => d.seen.length + d.admission.queued().c >= 7);
    expect(d.admission.inFlight().b).toBe(0);
    const legitimate = sendFrom(d, '127.0.0.3', 'POST', '/core/v1/sessions');
    await until(() => d.admission.inFlight().b === 1);
    // An address that is not locked holds at most a quarter of the line: one place of four here.
    const refusedGreedy: number[] = [];
    const greedy = [1, 2, 3].map((i) =>
      sendFrom(d, '127.0.0.4', 'POST', `/core/v1/probes/hash/ab${i}`).then((r) => {
        if (r.status === 503) refusedGreedy.push(i);
        return r;
      }),
    );
    await until(() => refusedGreedy.length === 2);
    expect(d.admission.inFlight().b).toBe(2);
    let done = false;
    const all = Promise.all([...locked, ...greedy, legitimate]).finally(() => (done = true));
    while (!done) {
      d.held.splice(0).forEach((h) => h.release());
      await sleep(5);
    }
    const answers = await all;
    expect(answers.at(-1)!.status).toBe(200);
    expect(checked).toContain('127.0.0.3');
  });

  test('a refusal carries the headers every answer carries: the security headers and X-Request-Id', async () => {
    d = await door({
      maxInFlight: 1,
      maxQueued: 0,
      answerHeaders: { 'Content-Security-Policy': "default-src 'self'", 'X-Frame-Options': 'SAMEORIGIN' },
    });
    const holder = get(d, '/core/v1/tenants');
    await until(() => d.held.length === 1);
    const refused = await get(d, '/core/v1/tenants');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(refused.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const named = await get(d, '/core/v1/tenants', { ...bearer, 'x-request-id': 'trace-42' });
    expect(named.headers.get('x-request-id')).toBe('trace-42');
    d.held.splice(0).forEach((h) => h.release());
    await holder;
  });
});

describe('a pause of the process: what arrived meanwhile is bounded by time', () => {
  /** Blocks this process (server and clients alike) for `ms`, as a major garbage collection or a stopped CPU does. */
  const pause = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  /** Raw connections to the door, open and accepted, each with the status of its first answer once it comes. */
  async function connections(port: number, n: number) {
    const sockets = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<import('node:net').Socket>((resolve) => {
            const s = connect(port, '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    await sleep(100);
    const statuses = sockets.map(
      (s) =>
        new Promise<{ status: number; retryAfter: boolean }>((resolve) => {
          let text = '';
          s.on('data', (c) => {
            text += String(c);
            if (text.includes('\r\n\r\n'))
              resolve({ status: Number(text.split(' ')[1]), retryAfter: /\r\nretry-after: /i.test(text) });
          });
          s.on('error', () => resolve({ status: 0, retryAfter: false }));
        }),
    );
    return { sockets, statuses };
  }

  test('a backlog read after a 600 ms pause is refused at once beyond the floor, not served after its deadline', async () => {
    const d = await door({ minInFlight: 2, maxInFlight: 4, maxQueued: 100, deadlineMs: 250, targetMs: 250 });
    try {
      const { sockets, statuses } = await connections(d.port, 20);
      // Written to the kernel at once; the door reads them only after the pause.
      for (const s of sockets)
        s.write('GET /core/v1/tenants HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer some-token\r\n\r\n');
      pause(600);
      // Whatever was admitted is answered at once: waiting longer is not what refuses the rest.
      let done = false;
      const all = Promise.all(statuses).finally(() => (done = true));
      while (!done) {
        d.held.splice(0).forEach((h) => h.release());
        await sleep(5);
      }
      const answers = await all;
      const count = (status: number) => answers.filter((a) => a.status === status).length;
      // The floor (2 in flight) is served; the 18 that already waited 600 ms (beyond the 250 ms deadline) are refused.
      expect(count(200)).toBe(2);
      expect(count(503)).toBe(18);
      expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter)).toBe(true);
      sockets.forEach((s) => s.destroy());
    } finally {
      await d.close();
    }
  });

  test('a lone request read after a pause is still served (the floor)', async () => {
    const d = await door({ minInFlight: 2, maxInFlight: 4, deadlineMs: 250, targetMs: 250 });
    try {
      const { sockets, statuses } = await connections(d.port, 1);
      sockets[0].write('GET /core/v1/tenants HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer some-token\r\n\r\n');
      pause(600);
      await until(() => d.held.length === 1);
      d.held.splice(0).forEach((h) => h.release());
      expect((await statuses[0]).status).toBe(200);
      sockets[0].destroy();
    } finally {
      await d.close();
    }
  });

  test('a pause does not shrink the adaptive limit to the floor (it measured the pause, not the instance)', async () => {
    const held: (() => void)[] = [];
    const admission = admit(
      (req, res) => {
        if (req.url === '/hold') held.push(() => res.end('{}'));
        else setImmediate(() => res.end('{}'));
      },
      {
        minInFlight: 2,
        maxInFlight: 64,
        latencyTargetMs: 100,
        maxQueued: 1_000,
        deadlineMs: 5_000,
        targetMs: 5_000,
        signInSlots: () => 2,
      },
      createLogger('silent'),
    );
    const server = http.createServer(admission.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // Quick answers for a second: the limit stays well above the floor.
      const end = performance.now() + 1_000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < end) await (await fetch(`${base}/x`)).text();
        }),
      );
      expect(admission.limit()).toBeGreaterThan(4);
      const answer = fetch(`${base}/hold`);
      await until(() => held.length === 1);
      pause(600);
      held.splice(0).forEach((release) => release());
      expect((await answer).status).toBe(200);
      expect(admission.limit()).toBeGreaterThan(4);
    } finally {
      admission.stop();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
