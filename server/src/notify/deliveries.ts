// Sends the dispatches of one message (a row each per recipient, channel and address) from inside a job. Each
// batch is claimed by writing 'sending' with the job's claim, sent concurrently, and each outcome written as it
// returns: 'sent', queued again with backoff, or 'failed' after the last attempt. A row already 'sent' is never
// claimed again; a row left 'sending' by an older claim (its worker stopped mid-send) is claimed again: delivery is
// at least once at the provider interface, every attempt of a dispatch carrying the same identity (see
// dispatchIdempotencyKey), which the provider or the receiving mail system uses to deliver it once.
import type { Db } from '../db/database';
import type { DispatchChannel, DispatchSource } from '../db/column-types';
import type { Logger } from '../logger';
import type { OutgoingMessage } from './channels';
import type { Notifier } from './notifier';
import { dispatchPolicy } from './dispatch-policy';
import { OutcomeRecorder } from './outcome-recorder';
import { claimDispatches, findNextDispatchAttempt, type ClaimedDispatch } from './notify.repository';
import type { JobContext, JobResult } from '../jobs/scheduler';

export { dispatchPolicy, dispatchRetryDelayMs } from './dispatch-policy';
export type { ClaimedDispatch };

/**
 * The identity every attempt of one dispatch carries: `idempotency-key` for HTTP providers, `X-Idempotency-Key` and
 * the Message-ID for email. The same on every retry (so the provider delivers a repeat once) and unique across the
 * regions that share a provider account (each region numbers its dispatches in its own database) and across
 * reused ids (the row's random key_nonce: a restored backup or a reset numbers dispatches again from an old id).
 */
export function dispatchIdempotencyKey(region: string, dispatch: { id: number; key_nonce: string }): string {
  return `${region}.dispatch-${dispatch.id}.${dispatch.key_nonce}`;
}

export type Rendered = Omit<OutgoingMessage, 'to'>;

export interface LoadedMessage {
  render(dispatch: ClaimedDispatch): Rendered;
  /** SHA-256 of the dispatch's confirmation token, written with the claim (so before the link leaves); null: none. */
  confirmationHash?(dispatch: { id: number; channel: DispatchChannel; key_nonce: string }): string | null;
}

/** What delivery uses of the process's services. */
export interface DeliveryDeps {
  db: Db;
  config: { region: string };
  notifier: Notifier;
  logger: Logger;
}

/** A source of dispatches (a module); it is handed the services its caller passed to deliverDispatches. */
export interface DispatchSourceAdapter<S extends DeliveryDeps = DeliveryDeps> {
  source: DispatchSource;
  /** Loads what rendering needs, once per job run (a message does not change once sent). */
  load(services: S, messageId: number): Promise<LoadedMessage>;
  /** Dispatches that failed for good (e.g. to add a fallback by another channel). */
  onGaveUp?(services: S, messageId: number, failed: ClaimedDispatch[]): Promise<void>;
}

export interface DeliveryStart {
  /** The dispatch rows were created in this run: none can be left over from an earlier one. */
  fresh?: boolean;
  /** Rows this run already holds (created as 'sending' under its claim, in the transaction that made them). */
  claimed?: ClaimedDispatch[];
  /** What rendering needs, when the caller has it at hand. */
  message?: LoadedMessage;
}

export async function deliverDispatches<S extends DeliveryDeps>(
  services: S,
  ctx: JobContext,
  adapter: DispatchSourceAdapter<S>,
  messageId: number,
  start: DeliveryStart = {},
): Promise<JobResult> {
  const { db } = services;
  const { source } = adapter;
  const message = start.message ?? (await adapter.load(services, messageId));
  // Only a job that ran before (and stopped or failed) can have left rows 'sending'.
  let abandoned = !start.fresh && ctx.attempt > 1;
  let held = start.claimed ?? null;
  let requeued = false;
  for (;;) {
    if (ctx.stopping()) return { rerunAt: ctx.now() };
    let batch: ClaimedDispatch[];
    let exhausted: boolean;
    if (held) {
      [batch, exhausted, held] = [held, held.length < dispatchPolicy.batchSize, null];
    } else {
      const claimable = abandoned
        ? { abandoned: true as const, claim: ctx.claim }
        : { abandoned: false as const, now: ctx.now() };
      const claimed = await claimDispatches(
        db,
        source,
        messageId,
        claimable,
        ctx.claim,
        dispatchPolicy.batchSize,
        message.confirmationHash?.bind(message),
      );
      if (claimed === null) {
        if (!abandoned) break;
        abandoned = false;
        continue;
      }
      [batch, exhausted] = [claimed.rows, claimed.exhausted];
    }
    const recorder = new OutcomeRecorder(db, ctx);
    await mapLimit(batch, dispatchPolicy.concurrency, async (dispatch) => {
      let error: string | null = null;
      const idempotencyKey = dispatchIdempotencyKey(services.config.region, dispatch);
      try {
        await services.notifier[dispatch.channel].send({
          ...message.render(dispatch),
          to: dispatch.sent_to,
          idempotencyKey,
        });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      recorder.add(dispatch, error);
    });
    const { failed, retried } = await recorder.finish();
    requeued ||= retried;
    if (failed.length > 0) {
      services.logger.warn({ source, messageId, failed: failed.length }, 'dispatches failed for good');
      await adapter.onGaveUp?.(services, messageId, failed);
      continue; // a fallback may have been added
    }
    // Nothing more was claimable (retries are due later): no need to ask again.
    if (exhausted && !abandoned) break;
  }
  if (start.fresh && !requeued) return undefined;
  const next = await findNextDispatchAttempt(db, source, messageId);
  return next ? { rerunAt: next } : undefined;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
