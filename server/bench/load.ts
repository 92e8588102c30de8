// A small closed-loop load generator: `connections` loops, each sending its next request when the previous
// answer arrives, over keep-alive sockets, for a fixed time. Bounded in time; loopback only.
import http from 'node:http';

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export function request(port: number, spec: RequestSpec, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: spec.method,
        path: spec.path,
        agent,
        headers: {
          ...(spec.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(spec.body) } : {}),
          ...spec.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (spec.body) req.write(spec.body);
    req.end();
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/**
 * Runs `connections` loops for `durationMs`. `next(worker)` gives each loop's next request (so loops can carry
 * state, like a rotated refresh token); `onAnswer` sees each answer.
 */
export async function load(options: {
  port: number;
  connections: number;
  durationMs: number;
  next: (worker: number) => RequestSpec | Promise<RequestSpec>;
  onAnswer?: (worker: number, answer: Answer) => void;
  expectStatus?: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;
  await Promise.all(
    Array.from({ length: options.connections }, async (_, worker) => {
      while (performance.now() < deadline) {
        const spec = await options.next(worker);
        const t0 = performance.now();
        try {
          const answer = await request(options.port, spec, agent);
          latencies.push(performance.now() - t0);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (options.expectStatus && answer.status !== options.expectStatus) errors++;
          options.onAnswer?.(worker, answer);
        } catch {
          errors++;
        }
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}

/** Open loop: one request every 1000/rate ms for `durationMs`, whatever the answers take (a fixed arrival rate). */
export async function paced(options: {
  port: number;
  rate: number;
  durationMs: number;
  next: () => RequestSpec;
  expectStatus?: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const started = performance.now();
  const total = Math.floor((options.durationMs / 1000) * options.rate);
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inFlight.push(
      request(options.port, options.next(), agent).then(
        (answer) => {
          latencies.push(performance.now() - t0);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (options.expectStatus && answer.status !== options.expectStatus) errors++;
        },
        () => void errors++,
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}
