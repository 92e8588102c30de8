// Prometheus metrics (prom-client), one registry per process, served at GET /metrics (metrics-route.ts).
// Counters live here so any module can count without wiring: e.g. `signInOutcomes.inc({ method: 'password',
// outcome: 'success' })`, `lockouts.inc({ kind: 'password' })`. Gauges that need the database read it when
// scraped, through the services registered with observeServices().
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle, Db } from '../db/database';
import { selectDueJobBacklog } from './metrics.repository';

export const registry = new Registry();
// Process metrics, including event-loop lag (nodejs_eventloop_lag_seconds and its percentiles).
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

export const httpRequests = new Counter({
  name: 'core_http_requests_total',
  help: 'HTTP requests answered, by contract operation (or route group outside the contract) and status',
  labelNames: ['operation', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'core_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer finishing, by operation and status',
  labelNames: ['operation', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const dispatchOutcomes = new Counter({
  name: 'core_dispatches_total',
  help: 'Message dispatches handed to a provider, by channel and outcome (sent, retry, failed)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

/** Sign-in attempts by method (password, otp, sso, refresh, …) and outcome (success, failure, …). */
export const signInOutcomes = new Counter({
  name: 'core_sign_in_total',
  help: 'Sign-in attempts by method and outcome',
  labelNames: ['method', 'outcome'] as const,
  registers: [registry],
});

/** Lockouts begun (an account or address blocked by a throttle), by kind. */
export const lockouts = new Counter({
  name: 'core_lockouts_total',
  help: 'Sign-in attempts refused by a lockout or rate limit (429), by grant type',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Security events written (modules/security-events), by kind only: a fixed set of labels, never a user's. */
export const securityEventsWritten = new Counter({
  name: 'core_security_events_total',
  help: 'Security events written, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const housekeepingRemoved = new Counter({
  name: 'core_housekeeping_rows_removed_total',
  help: 'Rows removed by the hourly housekeeping job, by table',
  labelNames: ['table'] as const,
  registers: [registry],
});

/** Requests refused at the door (http/admission.ts), by operation, work class and reason. */
export const admissionRefusals = new Counter({
  name: 'core_admission_refusals_total',
  help: 'Requests answered 503 with Retry-After before their body was read: the instance was busy (by operation, work class a/b/c and reason)',
  labelNames: ['operation', 'class', 'reason'] as const,
  registers: [registry],
});

/** What the gauges read when scraped: the database and its pool, and the clock. */
export interface ObservedProcess {
  db: Db;
  database: Pick<DatabaseHandle, 'poolStats'>;
  now: () => Date;
}

let observed: ObservedProcess | null = null;

/** Gauges read from the services of this process when scraped (main.ts registers its one Services). */
export function observeServices(services: ObservedProcess | null): void {
  observed = services;
}

new Gauge({
  name: 'core_db_pool_connections',
  help: 'Database pool connections by state (total, idle, waiting clients)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const stats = observed?.database.poolStats?.();
    if (!stats) return;
    this.set({ state: 'total' }, stats.total);
    this.set({ state: 'idle' }, stats.idle);
    this.set({ state: 'waiting' }, stats.waiting);
  },
});

const jobDepth = new Gauge({
  name: 'core_job_queue_depth',
  help: 'Pending durable jobs that are due now',
  registers: [registry],
});
const jobLag = new Gauge({
  name: 'core_job_queue_lag_seconds',
  help: 'How long the oldest due, unclaimed job has waited',
  registers: [registry],
});

/** One query per scrape for both queue gauges (prom-client awaits collect() of every metric). */
new Gauge({
  name: 'core_job_queue_scrape_ok',
  help: '1 when the job queue gauges were read on this scrape, 0 when the database did not answer',
  registers: [registry],
  async collect() {
    if (!observed) return;
    try {
      const now = observed.now();
      const row = await selectDueJobBacklog(observed.db, now);
      jobDepth.set(Number(row?.depth ?? 0));
      jobLag.set(row?.oldest ? Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1_000) : 0);
      this.set(1);
    } catch {
      this.set(0);
    }
  },
});
