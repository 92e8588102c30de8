// Refused requests (503 with Retry-After: the instance is busy, come back) are counted per operation and status in
// the request metrics, and summarised in the log as one `warn` line per second with the count, never one line per
// request: at 300 % of capacity thousands a second would otherwise flood the log and cost the CPU the refusals save.
import type { Logger } from '../logger';
import { admissionRefusals, httpDuration, httpRequests } from '../metrics/metrics';

export type RefusalReason = 'queue-full' | 'queue-timeout' | 'late' | 'sign-in-queue-full' | 'client-share';

interface Window {
  total: number;
  byOperation: Map<string, number>;
  timer: NodeJS.Timeout | null;
}

const windows = new WeakMap<Logger, Window>();
const summaryMs = 1_000;

function windowOf(logger: Logger): Window {
  let window = windows.get(logger);
  if (!window) windows.set(logger, (window = { total: 0, byOperation: new Map(), timer: null }));
  return window;
}

/** Adds one refusal to this second's summary line (written at `warn` when the second ends). */
export function summariseRefusal(logger: Logger, operation: string, status = 503): void {
  const window = windowOf(logger);
  const key = `${operation} ${status}`;
  window.total++;
  window.byOperation.set(key, (window.byOperation.get(key) ?? 0) + 1);
  window.timer ??= setTimeout(() => {
    const refused = Object.fromEntries(window.byOperation);
    const total = window.total;
    window.total = 0;
    window.byOperation.clear();
    window.timer = null;
    logger.warn({ refused: total, byOperation: refused, seconds: summaryMs / 1_000 }, 'requests refused: busy');
  }, summaryMs).unref();
}

/** Counts a refusal answered at the door (before Express): request metrics, refusal metrics and the summary. */
export function countDoorRefusal(
  logger: Logger,
  operation: string,
  workClass: string,
  reason: RefusalReason,
  startedAt: number,
): void {
  const labels = { operation, status: '503' };
  httpRequests.inc(labels);
  httpDuration.observe(labels, (performance.now() - startedAt) / 1_000);
  admissionRefusals.inc({ operation, class: workClass, reason });
  summariseRefusal(logger, operation);
}
