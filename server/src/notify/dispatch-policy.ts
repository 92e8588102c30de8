// How dispatches are retried and batched (docs/decisions.md, Crisis communication).

/** Retry policy of one dispatch (docs/decisions.md): 5 attempts, 5 s, 10 s, 20 s, 40 s apart. */
export const dispatchPolicy = {
  maxAttempts: 5,
  baseDelayMs: 5_000,
  maxDelayMs: 300_000,
  batchSize: 500,
  concurrency: 64,
};

export const dispatchRetryDelayMs = (attempt: number): number =>
  Math.min(dispatchPolicy.maxDelayMs, dispatchPolicy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
