// Load generators for loopback only, bounded in time and in requests in flight: a closed loop (N clients, each sending
// its next request when the answer arrives: finds capacity) and an open loop (a fixed rate whatever the answers:
// measures latency at a load, corrected for coordinated omission — latency counts from when a request was due).
import http from 'node:http';

export function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

function send(agent, url, spec) {
  return new Promise((resolve) => {
    const u = new URL(spec.path, url);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: spec.method ?? 'GET',
        agent,
        timeout: 10_000,
        headers: {
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          ...spec.headers,
        },
      },
      (res) => {
        if (res.statusCode === 503 && !res.headers['retry-after']) spec.missingRetryAfter?.();
        if (spec.onBody) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            spec.onBody(res.statusCode ?? 0, text);
            resolve(res.statusCode ?? 0);
          });
          return;
        }
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    if (body) req.write(body);
    req.end();
  });
}

/** Latency percentiles per status (answered and refused apart). */
function byStatusOf(samples) {
  const out = {};
  for (const [status, xs] of Object.entries(samples)) {
    xs.sort((a, b) => a - b);
    out[status] = { count: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: xs[xs.length - 1] ?? 0 };
  }
  return out;
}

function summarise(latencies, statuses, errors, seconds, extra = {}) {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    errors,
    statuses,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    seconds,
    ...extra,
  };
}

export async function closedLoop({ url, connections, durationMs, next, expect = 200 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const statuses = {};
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const status = await send(agent, url, next());
        latencies.push(performance.now() - start);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== expect) errors++;
      }
    }),
  );
  agent.destroy();
  return summarise(latencies, statuses, errors, (performance.now() - t0) / 1000, { connections });
}

/**
 * `rate` requests a second for `durationMs` (reached linearly over the first `rampMs`); at most `maxInFlight` at once
 * (beyond that a request counts as an error). Latencies are kept per status too (`byStatus`), and 503s without
 * Retry-After are counted.
 */
export async function openLoop({ url, rate, durationMs, next, expect = 200, maxInFlight = 4096, rampMs = 0, onTick }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
  const latencies = [];
  const perStatus = {};
  const statuses = {};
  let errors = 0;
  let dropped = 0;
  let inFlight = 0;
  let issued = 0;
  let missingRetryAfter = 0;
  const pending = new Set();
  const t0 = performance.now();
  // Requests due by `ms` after the start: the integral of a rate that ramps linearly to `rate` over rampMs.
  const dueBy = (ms) =>
    rampMs > 0 && ms < rampMs
      ? Math.floor((rate * ms * ms) / (2 * rampMs * 1000))
      : Math.floor((rate * (ms - rampMs / 2)) / 1000);
  const dueAtOf = (n) => {
    // Inverse of dueBy: when request n falls due.
    const rampCount = (rate * rampMs) / 2000;
    return rampMs > 0 && n < rampCount ? Math.sqrt((2 * n * rampMs * 1000) / rate) : (n * 1000) / rate + rampMs / 2;
  };
  let lastTick = t0;
  // The generator's own stalls (its garbage collection, a busy machine) send a burst of overdue requests at once:
  // measured, so a latency spike can be told apart from a stall of the region.
  let lastLoop = t0;
  let maxLagMs = 0;
  let stallsOver100ms = 0;
  while (performance.now() - t0 < durationMs) {
    const now = performance.now();
    const lag = now - lastLoop;
    lastLoop = now;
    if (lag > maxLagMs) maxLagMs = lag;
    if (lag > 100) stallsOver100ms++;
    const due = dueBy(now - t0);
    while (issued < due) {
      const dueAt = t0 + dueAtOf(issued);
      issued++;
      if (inFlight >= maxInFlight) {
        dropped++;
        errors++;
        continue;
      }
      inFlight++;
      const spec = { ...next(), missingRetryAfter: () => missingRetryAfter++ };
      const p = send(agent, url, spec).then((status) => {
        inFlight--;
        const took = performance.now() - dueAt;
        latencies.push(took);
        (perStatus[status] ??= []).push(took);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== expect) errors++;
        pending.delete(p);
      });
      pending.add(p);
    }
    if (onTick && now - lastTick >= 1000) {
      lastTick = now;
      onTick((now - t0) / 1000);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  agent.destroy();
  return summarise(latencies, statuses, errors, (performance.now() - t0) / 1000, {
    rate,
    dropped,
    issued,
    maxLagMs,
    stallsOver100ms,
    missingRetryAfter,
    byStatus: byStatusOf(perStatus),
  });
}

/**
 * Refresh chains: `sessions` signed-in clients, each rotating its own session's tokens in turn (a refresh token is
 * used once) every `everyMs` (0: as soon as the last answer came, a closed loop), for `durationMs`. Latency from
 * when each refresh was due.
 */
export async function refreshChains({ url, sessions, everyMs, durationMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sessions.length });
  const perStatus = {};
  const statuses = {};
  let missingRetryAfter = 0;
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (session, i) => {
      let due = t0 + (everyMs * i) / sessions.length;
      while (due - t0 < durationMs && performance.now() - t0 < durationMs) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        let body = '';
        const status = await send(agent, url, {
          method: 'PUT',
          path: `/core/v1/sessions/${session.id}`,
          headers: { 'cosafe-core-api-version': '1', authorization: `Bearer ${session.refreshToken}` },
          onBody: (_s, text) => (body = text),
          missingRetryAfter: () => missingRetryAfter++,
        });
        (perStatus[status] ??= []).push(performance.now() - due);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200) {
          const rotated = JSON.parse(body);
          session.refreshToken = rotated.refreshToken;
          session.accessToken = rotated.accessToken;
        }
        due = everyMs > 0 ? due + everyMs : performance.now();
      }
    }),
  );
  agent.destroy();
  const all = Object.values(perStatus).flat();
  return summarise(all, statuses, all.length - (statuses[200] ?? 0), (performance.now() - t0) / 1000, {
    byStatus: byStatusOf(perStatus),
    missingRetryAfter,
  });
}
