// The SQL of a single sign-on session's answer: the sessions table is written by the sessions module only.
import type { Executor } from '../../db/database';

/** Binds a session waiting for its identity provider to the asserted user, with the factor it verified. */
export async function bindSessionToUser(
  db: Executor,
  sessionId: string,
  userId: number,
  factors: Record<string, 'verified'>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ user_id: userId, factors: JSON.stringify(factors) })
    .where('id', '=', sessionId)
    .execute();
  await db.updateTable('users').set({ last_access_at: now }).where('id', '=', userId).execute();
}
