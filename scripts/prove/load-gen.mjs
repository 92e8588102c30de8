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

/** `rate` requests a second for `durationMs`; at most `maxInFlight` at once (beyond that a request counts as an error). */
export async function openLoop({ url, rate, durationMs, next, expect = 200, maxInFlight = 4096, onTick }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxInFlight });
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let dropped = 0;
  let inFlight = 0;
  let issued = 0;
  const pending = new Set();
  const t0 = performance.now();
  const interval = 1000 / rate;
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
    const due = Math.floor((now - t0) / interval);
    while (issued < due) {
      const dueAt = t0 + issued * interval;
      issued++;
      if (inFlight >= maxInFlight) {
        dropped++;
        errors++;
        continue;
      }
      inFlight++;
      const p = send(agent, url, next()).then((status) => {
        inFlight--;
        latencies.push(performance.now() - dueAt);
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
  });
}
