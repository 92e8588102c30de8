// The one-time-code challenges of a session (one-time-codes.ts decides; these statements read and write them).
import type { Executor } from '../../db/database';

type OtpKind = 'otpEmail' | 'otpSms';

/** One more wrong answer on the challenge. */
export async function countWrongAnswer(db: Executor, challenge: { id: string; attempts: number }): Promise<void> {
  await db
    .updateTable('challenges')
    .set({ attempts: challenge.attempts + 1 })
    .where('id', '=', challenge.id)
    .execute();
}

/** The wrong answers given to all of the session's challenges together. */
export async function wrongAnswersOf(db: Executor, sessionId: string): Promise<number> {
  const { wrong } = await db
    .selectFrom('challenges')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('attempts'), eb.lit(0)).as('wrong'))
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return Number(wrong);
}

/** Until when the session's latest challenge of this kind holds back another code, if it has one. */
export async function resendHeldUntil(db: Executor, sessionId: string, kind: OtpKind) {
  const latest = await db
    .selectFrom('challenges')
    .select('resend_unavailable_until')
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.resend_unavailable_until;
}

/** A new code challenge; the session's earlier code challenges, of either kind, are withdrawn. */
export async function replaceCodeChallenge(
  db: Executor,
  challenge: {
    id: string;
    sessionId: string;
    kind: OtpKind;
    secretHash: string;
    sentTo: string;
    validUntil: Date;
    resendUnavailableUntil: Date;
    now: Date;
  },
): Promise<void> {
  await db
    .updateTable('challenges')
    .set({ consumed_at: challenge.now })
    .where('session_id', '=', challenge.sessionId)
    .where('consumed_at', 'is', null)
    .where('kind', 'in', ['otpEmail', 'otpSms'])
    .execute();
  await db
    .insertInto('challenges')
    .values({
      id: challenge.id,
      session_id: challenge.sessionId,
      kind: challenge.kind,
      secret_hash: challenge.secretHash,
      sent_to: challenge.sentTo,
      valid_until: challenge.validUntil,
      resend_unavailable_until: challenge.resendUnavailableUntil,
    })
    .execute();
}

/** Withdraws a challenge whose code could not be sent. */
export async function deleteChallenge(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('challenges').where('id', '=', id).execute();
}

/** The identity hash of a user, if the user exists. */
export async function emailHashOf(db: Executor, userId: number): Promise<string | undefined> {
  const user = await db.selectFrom('users').select('email_hash').where('id', '=', userId).executeTakeFirst();
  return user?.email_hash;
}

/** The session's latest open challenge of this kind, held for the answer. */
export async function openChallengeForUpdate(db: Executor, sessionId: string, kind: OtpKind) {
  return db
    .selectFrom('challenges')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The challenge was answered. */
export async function consumeChallenge(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('challenges').set({ consumed_at: now }).where('id', '=', id).execute();
}
