// The statements of outbound delivery: the dev outbox and the dispatch rows (claim, outcome, next attempt).
import { sql } from 'kysely';
import type { DispatchChannel, DispatchSource } from '../db/column-types';
import type { Db } from '../db/database';

/** A dispatch row as a claim holds it (deliveries.ts claims, sends and records it). */
export interface ClaimedDispatch {
  id: number;
  recipient_id: number;
  channel: DispatchChannel;
  sent_to: string;
  /** The sends of this dispatch whose outcome was recorded before this one. */
  attempts: number;
  key_nonce: string;
  /** The recipient's language, chosen when the dispatch was made (null: English). */
  language: string | null;
}

export async function insertOutboxMessage(
  db: Db,
  channel: DispatchChannel,
  message: { to: string; subject?: string; body: string },
): Promise<void> {
  await db
    .insertInto('outbox')
    .values({ channel, recipient: message.to, subject: message.subject ?? null, body: message.body })
    .execute();
}

/** The newest hundred outbox messages, newest first; only those to `to` when given. */
export async function selectOutboxMessages(db: Db, to: string | undefined) {
  let query = db
    .selectFrom('outbox')
    .select(['channel', 'recipient as to', 'subject', 'body', 'created_at as createdAt'])
    .orderBy('id', 'desc')
    .limit(100);
  if (to !== undefined) query = query.where('recipient', '=', to);
  return query.execute();
}

/** The dispatches among `ids` still 'sending' under this claim (a row claimed again since is not this claim's). */
const claimedBy = (db: Db, ids: number[], claim: string) =>
  db.updateTable('dispatches').where('id', 'in', ids).where('status', '=', 'sending').where('locked_by', '=', claim);

export async function markDispatchesSent(db: Db, ids: number[], claim: string, now: Date): Promise<void> {
  await claimedBy(db, ids, claim)
    .set((eb) => ({
      status: 'sent',
      sent_at: now,
      locked_by: null,
      last_error: null,
      attempts: eb('attempts', '+', 1),
    }))
    .execute();
}

/** A failed send's outcome: queued again at `nextAttemptAt`, or 'failed' for good. */
export async function markDispatchesFailed(
  db: Db,
  ids: number[],
  claim: string,
  outcome: { gaveUp: boolean; attempts: number; nextAttemptAt: Date; error: string },
): Promise<void> {
  await claimedBy(db, ids, claim)
    .set({
      status: outcome.gaveUp ? 'failed' : 'queued',
      attempts: outcome.attempts,
      next_attempt_at: outcome.nextAttemptAt,
      locked_by: null,
      last_error: outcome.error,
    })
    .execute();
}

/** When the message's next queued dispatch is due; null when none is queued. */
export async function findNextDispatchAttempt(db: Db, source: DispatchSource, messageId: number) {
  const next = await db
    .selectFrom('dispatches')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('source', '=', source)
    .where('message_id', '=', messageId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return next?.at ? new Date(next.at) : null;
}

/** Which rows a claim takes: those left 'sending' by another claim, or the queued ones that are due. */
export type ClaimableDispatches = { abandoned: true; claim: string } | { abandoned: false; now: Date };

/**
 * Claims the next rows (in id order, along the (source, message_id, status, id) index) by writing 'sending' and
 * the claim; answers null when there is nothing left to claim, and whether this was the last of them. Without
 * confirmation links one statement with FOR UPDATE SKIP LOCKED does it; with them the candidates are read first,
 * so their hashes go in the same write.
 */
export async function claimDispatches(
  db: Db,
  source: DispatchSource,
  messageId: number,
  claimable: ClaimableDispatches,
  claim: string,
  limit: number,
  confirmationHash?: (dispatch: { id: number; channel: DispatchChannel; key_nonce: string }) => string | null,
): Promise<{ rows: ClaimedDispatch[]; exhausted: boolean } | null> {
  const which = claimable.abandoned
    ? sql`status = 'sending' and locked_by is distinct from ${claimable.claim}`
    : sql`status = 'queued' and next_attempt_at <= ${claimable.now}`;
  const returning = sql`returning d.id, d.recipient_id, d.channel, d.sent_to, d.attempts, d.key_nonce, d.language`;
  // attempts counts sends (outcome-recorder.ts writes it with each outcome), not claims.
  const set = sql`status = 'sending', locked_by = ${claim}`;
  if (!confirmationHash) {
    const { rows } = await sql<ClaimedDispatch>`
      update dispatches d set ${set}
       where d.id in (select id from dispatches
                       where source = ${source} and message_id = ${messageId} and ${which}
                       order by id limit ${limit}
                       for update skip locked)
      ${returning}`.execute(db);
    return rows.length > 0 ? { rows, exhausted: rows.length < limit } : null;
  }
  const candidates = await sql<{ id: number; channel: DispatchChannel; key_nonce: string }>`
    select id, channel, key_nonce from dispatches
     where source = ${source} and message_id = ${messageId} and ${which}
     order by id limit ${limit}`.execute(db);
  if (candidates.rows.length === 0) return null;
  const values = sql.join(candidates.rows.map((c) => sql`(${c.id}::bigint, ${confirmationHash(c)}::text)`));
  // The condition is checked again under the row lock: a row another worker claimed meanwhile is skipped.
  const { rows } = await sql<ClaimedDispatch>`
    update dispatches d set ${set}, confirmation_hash = coalesce(v.hash, d.confirmation_hash)
      from (values ${values}) as v(id, hash)
     where d.id = v.id and ${which}
    ${returning}`.execute(db);
  return { rows, exhausted: candidates.rows.length < limit };
}
