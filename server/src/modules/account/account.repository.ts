// The account's sessions as its page lists and ends them, a member's tenants as an administrator's rule reads them,
// and the password change's write. Sessions are the sessions module's rows; this reads and ends them only.
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { prepared, type Placeholder, type Placeholders } from '../../db/prepared';
import { pageAndTotal } from '../../shared/paging';
import type { Factors } from '../../shared/caller';

export interface SessionRow {
  id: string;
  created_at: Date;
  last_refreshed_at: Date;
  factors: Factors;
  user_agent: string | null;
  network: string | null;
}

/** Live: not ended, not expired, bound to the user, every factor proven. */
const liveSessionsOf = (db: Executor, userId: Placeholder, now: Placeholder) =>
  db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`${now}::timestamptz`)
    .where(
      sql<boolean>`not exists (select 1 from jsonb_each_text(sessions.factors) f where f.value = ${sql.lit('unverified')})`,
    );

/** A page of the user's live sessions, the most recently used first (ties by id), and their total: one statement. */
export const selectLiveSessions = prepared(
  (db, p: Placeholders<{ userId: number; now: string; limit: number; offset: number }>) =>
    pageAndTotal(
      db,
      liveSessionsOf(db, p.userId, p.now),
      liveSessionsOf(db, p.userId, p.now)
        .select(['id', 'created_at', 'last_refreshed_at', 'factors', 'user_agent', 'network'])
        .orderBy('last_refreshed_at', 'desc')
        .orderBy('id')
        .limit(p.limit)
        .offset(p.offset),
    ),
);

/**
 * Ends the user's sessions that still live (waiting for a factor included): all of them, all but `exceptId`, or
 * only `onlyId`. Answers the ids it ended.
 */
export async function endSessions(
  db: Executor,
  p: { userId: number; now: Date; reason: string; exceptId?: string; onlyId?: string },
): Promise<string[]> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: p.now, revoked_reason: p.reason })
    .where('user_id', '=', p.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', p.now);
  if (p.exceptId !== undefined) query = query.where('id', '!=', p.exceptId);
  if (p.onlyId !== undefined) query = query.where('id', '=', p.onlyId);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/** Whether the session is the user's (live or not). */
export async function isSessionOf(db: Executor, userId: number, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The tenants the member is an active member of, each with whether the administrator administers it (an active
 * membership with the role): one statement.
 */
export function selectMemberTenants(db: Executor, p: { memberId: number; administratorId: number }) {
  return db
    .selectFrom('memberships as m')
    .select([
      'm.tenant_id',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('memberships as a')
              .select('a.tenant_id')
              .whereRef('a.tenant_id', '=', 'm.tenant_id')
              .where('a.user_id', '=', p.administratorId)
              .where('a.active', '=', true)
              .where('a.is_admin', '=', true),
          )
          .as('administered'),
    ])
    .where('m.user_id', '=', p.memberId)
    .where('m.active', '=', true)
    .execute();
}

/** The signed-in account whose password changes: where to tell her (none when deactivated everywhere). */
export const selectAccount = (db: Executor, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '=', userId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();

/** The new password's hash. */
export async function updatePasswordHash(db: Executor, userId: number, passwordHash: string, now: Date) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
