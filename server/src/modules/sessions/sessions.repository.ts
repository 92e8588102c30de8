import { sql, type Transaction } from 'kysely';
import type { Executor } from '../../db/database';
import { fragment, prepared } from '../../db/prepared';
import { proofBinding } from '../../security/credentials';
import type { Database } from '../../db/types';
export type Factors = Record<string, 'verified' | 'unverified'>;

/** The account that signs in with this identity hash, to ride along in Throttle.guard (value: the hash). */
export const accountByEmailHash = fragment(1, (db, emailHash) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'phone_primary', 'otp_email_enabled', 'otp_sms_enabled'])
    .where('email_hash', '=', emailHash)
    // A user deactivated by every tenant's directory (SCIM) is no account for sign-in or probes.
    .where('deactivated_at', 'is', null),
);

export interface SignInAccount {
  id: number;
  email: string;
  password_hash: string | null;
  phone_primary: string | null;
  otp_email_enabled: boolean;
  otp_sms_enabled: boolean;
}

/**
 * Starts the session in the guard's own statement when the probe's one-time proof is good: the proof claimed
 * alongside as `proof` is bound to the account read alongside as `account` as it is now, it has not expired, and
 * `guard_refused` lets the request through. Then the session, its first refresh token and the user's last
 * access are written, and failures on record for the account are cleared, in that same round trip; answers the
 * session's id, or nothing (and writes nothing) when any condition fails. Values: the session id, now, when the
 * session expires, the refresh token's hash and the account's lockout key.
 */
export const sessionOnProof = fragment(
  5,
  () => sql`select id from proof_session`,
  (_db, id, now, expiresAt, refreshTokenHash, accountLockoutKey) => [
    [
      'proof_session',
      sql`insert into sessions (id, user_id, factors, last_refreshed_at, expires_at)
        select ${id}, a.id,
          jsonb_build_object('password', 'verified')
            || case when a.otp_email_enabled then jsonb_build_object('otpEmail', 'unverified') else '{}'::jsonb end
            || case when a.otp_sms_enabled then jsonb_build_object('otpSms', 'unverified') else '{}'::jsonb end,
          ${now}::timestamptz, ${expiresAt}::timestamptz
        from account a join proof p on p.binding = ${proofBinding(sql.ref('a.id'), sql.ref('a.password_hash'))} and p.expires_at > ${now}::timestamptz
        where not (select refused from guard_refused)
        returning id, user_id`,
    ],
    ['proof_session_token', sql`insert into refresh_tokens (token_hash, session_id) select ${refreshTokenHash}, id from proof_session`],
    ['proof_session_access', sql`update users set last_access_at = ${now}::timestamptz where id = (select user_id from proof_session)`],
    ['proof_session_failures', sql`delete from throttles where key = ${accountLockoutKey} and exists (select 1 from proof_session)`],
  ],
);

/** The factors a password sign-in starts with (the same as sessionOnProof writes). */
export function passwordFactors(account: SignInAccount): Factors {
  const factors: Factors = { password: 'verified' };
  if (account.otp_email_enabled) factors.otpEmail = 'unverified';
  if (account.otp_sms_enabled) factors.otpSms = 'unverified';
  return factors;
}

export const findUserById = (db: Executor, id: number) =>
  db.selectFrom('users').select(['id', 'email', 'name', 'phone_primary', 'password_hash']).where('id', '=', id).executeTakeFirst();

/** One statement: the session, its first refresh token and the user's last access (atomic without a transaction). */
const insertSessionStatement = prepared<never, [id: string, userId: number, factors: string, now: string, expiresAt: string, refreshTokenHash: string]>(
  6,
  (_db, id, userId, factors, now, expiresAt, refreshTokenHash) => sql<never>`
    with session as (
      insert into sessions (id, user_id, factors, last_refreshed_at, expires_at)
      values (${id}, ${userId}, ${factors}::jsonb, ${now}::timestamptz, ${expiresAt}::timestamptz)
      returning id
    ), token as (
      insert into refresh_tokens (token_hash, session_id) select ${refreshTokenHash}, id from session
    )
    update users set last_access_at = ${now}::timestamptz where id = ${userId}`,
);

export async function insertSessionWithToken(
  db: Executor,
  row: { id: string; userId: number; factors: Factors; now: Date; expiresAt: Date; refreshTokenHash: string },
): Promise<void> {
  await insertSessionStatement(db, row.id, row.userId, JSON.stringify(row.factors), row.now.toISOString(), row.expiresAt.toISOString(), row.refreshTokenHash);
}

export const findSessionForUpdate = (db: Transaction<Database>, id: string) =>
  db.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const findSession = (db: Executor, id: string) => db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateSession(db: Executor, id: string, values: { factors?: Factors; lastRefreshedAt?: Date; expiresAt?: Date }): Promise<void> {
  await db
    .updateTable('sessions')
    .set({
      ...(values.factors ? { factors: JSON.stringify(values.factors) } : {}),
      ...(values.lastRefreshedAt ? { last_refreshed_at: values.lastRefreshedAt } : {}),
      ...(values.expiresAt ? { expires_at: values.expiresAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function revokeSessions(db: Executor, where: { sessionId?: string; userId?: number; exceptSessionId?: string }, reason: string, now: Date): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: now, revoked_reason: reason }).where('revoked_at', 'is', null);
  if (where.sessionId) query = query.where('id', '=', where.sessionId);
  if (where.userId) query = query.where('user_id', '=', where.userId);
  if (where.exceptSessionId) query = query.where('id', '!=', where.exceptSessionId);
  await query.execute();
  if (where.sessionId) await db.deleteFrom('refresh_tokens').where('session_id', '=', where.sessionId).execute();
}

export async function insertRefreshToken(db: Executor, tokenHash: string, sessionId: string): Promise<void> {
  await db.insertInto('refresh_tokens').values({ token_hash: tokenHash, session_id: sessionId }).execute();
}

export const findRefreshToken = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** Marks every current token of the session as superseded (their grace window starts now). */
export async function supersedeRefreshTokens(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('refresh_tokens').set({ superseded_at: now }).where('session_id', '=', sessionId).where('superseded_at', 'is', null).execute();
}

/** Tokens superseded long ago are useless except to detect reuse; keep a day of them. */
export async function deleteOldRefreshTokens(db: Executor, sessionId: string, before: Date): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('session_id', '=', sessionId).where('superseded_at', '<', before).execute();
}

export async function touchLastAccess(db: Executor, userId: number, now: Date): Promise<void> {
  await db.updateTable('users').set({ last_access_at: now }).where('id', '=', userId).execute();
}
