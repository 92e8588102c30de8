// Writes the outcome of each dispatch as soon as its send returns (see deliveries.ts).
import type { Db } from '../db/database';
import { dispatchPolicy, dispatchRetryDelayMs } from './dispatch-policy';
import type { JobContext } from '../jobs/scheduler';
import { dispatchOutcomes } from '../metrics/metrics';
import { markDispatchesFailed, markDispatchesSent, type ClaimedDispatch } from './notify.repository';

export type { ClaimedDispatch };

/**
 * Writes each outcome as soon as its send returns, so a worker that dies mid-batch leaves only the sends in
 * flight unrecorded. Group commit: outcomes that arrive while a write runs go together in the next one.
 */
export class OutcomeRecorder {
  private pending: { dispatch: ClaimedDispatch; error: string | null }[] = [];
  private writing: Promise<void> | null = null;
  private failure: unknown = null;
  private readonly failed: ClaimedDispatch[] = [];
  private retried = false;

  constructor(
    private readonly db: Db,
    private readonly ctx: JobContext,
  ) {}

  add(dispatch: ClaimedDispatch, error: string | null): void {
    this.pending.push({ dispatch, error });
    this.writing ??= this.drain();
  }

  /** Waits for every outcome to be written; answers the dispatches that will not be tried again. */
  async finish(): Promise<{ failed: ClaimedDispatch[]; retried: boolean }> {
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
    return { failed: this.failed, retried: this.retried };
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const outcomes = this.pending;
        this.pending = [];
        await this.write(outcomes);
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.writing = null;
    }
  }

  private async write(outcomes: { dispatch: ClaimedDispatch; error: string | null }[]): Promise<void> {
    const now = this.ctx.now();
    // This send's number: attempts counts the sends whose outcome is recorded, written with the outcome (a row
    // claimed again after its worker died, before it sent, is not counted twice).
    const attempt = (dispatch: ClaimedDispatch) => dispatch.attempts + 1;
    const sent = outcomes.filter((o) => o.error === null).map((o) => o.dispatch.id);
    if (sent.length > 0) await markDispatchesSent(this.db, sent, this.ctx.claim, now);
    for (const { dispatch, error } of outcomes) {
      dispatchOutcomes.inc({
        channel: dispatch.channel,
        outcome: error === null ? 'sent' : attempt(dispatch) >= dispatchPolicy.maxAttempts ? 'failed' : 'retry',
      });
    }
    // Failures usually share the attempt number and the error: one update per such group.
    const groups = new Map<string, { attempt: number; error: string; ids: number[] }>();
    for (const { dispatch, error } of outcomes) {
      if (error === null) continue;
      if (attempt(dispatch) >= dispatchPolicy.maxAttempts) this.failed.push(dispatch);
      const key = `${attempt(dispatch)}:${error}`;
      const group = groups.get(key) ?? { attempt: attempt(dispatch), error, ids: [] };
      group.ids.push(dispatch.id);
      groups.set(key, group);
    }
    for (const { attempt: made, error, ids } of groups.values()) {
      const gaveUp = made >= dispatchPolicy.maxAttempts;
      if (!gaveUp) this.retried = true;
      await markDispatchesFailed(this.db, ids, this.ctx.claim, {
        gaveUp,
        attempts: made,
        nextAttemptAt: gaveUp ? now : new Date(now.getTime() + dispatchRetryDelayMs(made)),
        error: error.slice(0, 1_000),
      });
    }
  }
}
