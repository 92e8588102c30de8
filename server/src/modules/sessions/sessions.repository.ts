import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Executor } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import type { DB as Database } from '../../db/types';
import type { Factors } from '../../shared/caller';
import type { SignInClient } from '../../shared/client-address';
import { proofBinding } from './proofs.repository';
import {
  giveBack,
  lockoutAnswer,
  lockoutCheck,
  lockoutReservation,
  type GiveBackValues,
  type LockoutAnswer,
  type LockoutValues,
} from './lockouts.repository';

export type { Factors };

export interface SignInAccount {
  id: number;
  email: string;
  password_hash: string | null;
  phone_primary: string | null;
  otp_email_enabled: boolean;
  otp_sms_enabled: boolean;
  /** The user has a passkey here that still signs in: it may prove a pending second factor instead of a code. */
  has_passkey: boolean;
}

/**
 * Where a sign-in's security event comes from (modules/security-events): the region, the client's network and user
 * agent as that module makes them coarse, and the sign-in's method. `eventRegion` null: no event.
 */
export interface SignInEventValues {
  eventRegion: string | null;
  eventNetwork: string | null;
  eventUserAgent: string | null;
  eventMethod: string | null;
}

export const noSignInEvent: SignInEventValues = {
  eventRegion: null,
  eventNetwork: null,
  eventUserAgent: null,
  eventMethod: null,
};

/**
 * The sign-in's security event, as a common table expression of the statement that writes its session (no extra
 * round trip, and never one without the other): `sign_in_succeeded` when the session is complete, else
 * `sign_in_stepped_up` when a step-up made it wait for an emailed code; nothing for a session that waits for the
 * account's own second factor (its event comes with that factor) or when no session was written.
 */
const signInEvent = (
  p: Placeholders<SignInEventValues & { now: string }>,
  userId: RawBuilder<unknown>,
  complete: RawBuilder<unknown>,
  steppedUp: RawBuilder<unknown>,
) => sql`sign_in_event as (
    insert into security_events (at, kind, outcome, user_id, actor_type, actor_user_id, region, network, user_agent, details)
    select ${p.now}::timestamptz, k.kind, ${sql.lit('succeeded')}, u.id, ${sql.lit('self')}, u.id, ${p.eventRegion}::text,
      ${p.eventNetwork}::text, ${p.eventUserAgent}::text, jsonb_strip_nulls(jsonb_build_object(${sql.lit('method')}, ${p.eventMethod}::text))
    from (select ${userId} as id) u
    cross join lateral (select case when ${complete} then ${sql.lit('sign_in_succeeded')}
      when ${steppedUp} then ${sql.lit('sign_in_stepped_up')} end as kind) k
    where u.id is not null and k.kind is not null and ${p.eventRegion}::text is not null)`;

export interface PasswordSignInValues
  extends LockoutValues, SignInEventValues, Omit<GiveBackValues, 'now' | 'familiarHash' | 'sourceHash'> {
  emailHash: string;
  /** The key of the probe's one-time proof for these credentials (credentials.ts: proofKey). */
  proofKey: string;
  sessionId: string;
  /** When the session ends if it needs no second factor (one waiting for a factor ends sooner). */
  expiresAt: string;
  refreshTokenHash: string;
}

/** A session as written: the factors it still has to prove and when it ends come from the SQL rule that wrote it. */
export interface WrittenSession {
  id: string;
  factors: Factors;
  expires_at: string;
}

export interface PasswordSignInRow extends LockoutAnswer {
  account: SignInAccount | null;
  /** The session started on the probe's proof, or null (then argon2 decides). */
  session: WrittenSession | null;
}

/**
 * A password sign-in, in one statement, read top to bottom: the lockout check (security/throttle.ts); the account
 * that signs in with this identity hash; the probe's one-time proof for these credentials, deleted on first use;
 * and when that proof is bound to the account as it is now (its id and stored hash: a password changed since the
 * probe makes it worthless), has not expired, and no lock refuses: the session with its first refresh token
 * (waiting for an email code when the account has that factor or the per-identity ceiling asks for a step-up),
 * the user's last access and, when the session needs no further factor, the identity's failures ended and the
 * source made familiar. Without such a session the attempt is reserved (counted as a failure before argon2 runs)
 * and the caller checks the password.
 */
const passwordSignInStatement = prepared<PasswordSignInRow, PasswordSignInValues>(
  (_db, p) => sql<PasswordSignInRow>`
  with ${lockoutCheck(p)},
  account as (
    -- A user deactivated by every tenant's directory (SCIM) is no account for sign-in.
    select id, email, password_hash, phone_primary, otp_email_enabled, otp_sms_enabled,
      exists (select 1 from passkeys k where k.user_id = users.id and k.suspicious_at is null) as has_passkey
    from users
    where email_hash = ${p.emailHash} and deactivated_at is null),
  proof as (
    delete from verified_credentials where key = ${p.proofKey} returning binding, expires_at),
  second_factor as (
    select a.id, a.otp_email_enabled or exists (select 1 from stepped_up) as email, a.otp_sms_enabled as sms,
      a.has_passkey as passkey from account a),
  session as (
    -- The factors and the lifetime: the rule of the migration 2026-11-26T2300-session-factor-rule.
    -- The client (its user agent and coarse network) is the sign-in event's: the account page shows it.
    insert into sessions (id, user_id, factors, last_refreshed_at, proven_at, expires_at, refresh_token_hash, user_agent, network)
    select ${p.sessionId}, a.id, r.factors, ${p.now}::timestamptz, ${p.now}::timestamptz,
      session_expires_at(r.factors, ${p.now}::timestamptz, ${p.expiresAt}::timestamptz), ${p.refreshTokenHash},
      ${p.eventUserAgent}::text, ${p.eventNetwork}::text
    from account a
    join second_factor f on f.id = a.id
    cross join lateral (select password_session_factors(f.email, f.sms, f.passkey) as factors) r
    join proof on proof.binding = ${proofBinding(sql.ref('a.id'), sql.ref('a.password_hash'))} and proof.expires_at > ${p.now}::timestamptz
    where not (select refused from guard_refused)
    returning id, user_id, factors, expires_at),
  complete as (
    select 1 from session s where not exists (select 1 from jsonb_each_text(s.factors) f where f.value = ${sql.lit('unverified')})),
  access as (
    update users set last_access_at = ${p.now}::timestamptz where id = (select user_id from session)),
  ${signInEvent(p, sql`(select user_id from session)`, sql`exists (select 1 from complete)`, sql`exists (select 1 from stepped_up)`)},
  ${giveBack(p, sql`exists (select 1 from complete)`)},
  ${lockoutReservation(p, sql`exists (select 1 from session)`)}
  select ${lockoutAnswer(p, sql`exists (select 1 from session)`)},
    (select row_to_json(a) from account a) as account,
    (select json_build_object('id', id, 'factors', factors, 'expires_at', expires_at) from session) as session`,
);

export async function signInWithPassword(db: Executor, values: PasswordSignInValues): Promise<PasswordSignInRow> {
  const [row] = await passwordSignInStatement(db, values);
  return row;
}

export const findUserById = (db: Executor, id: number) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'phone_primary', 'password_hash'])
    .where('id', '=', id)
    .executeTakeFirst();

interface SessionValues extends GiveBackValues, SignInEventValues {
  id: string;
  userId: number | null;
  ssoTenantId: number | null;
  /** The factors the session starts with, or null for a password session's (password_session_factors of these). */
  factors: string | null;
  email: boolean;
  sms: boolean;
  passkey: boolean;
  /** When the session ends once it needs no further factor (session_expires_at decides). */
  expiresAt: string;
  refreshTokenHash: string;
  /** The session waits for an emailed code because the per-identity ceiling asked for a step-up. */
  eventStepUp: boolean;
  /** Where the sign-in comes from, kept with the session (a single sign-on session bound to nobody has no event). */
  userAgent: string | null;
  network: string | null;
}

/**
 * One statement: the session with its first refresh token, the user's last access and, after a checked attempt,
 * what it gives back (the giveBack fragment; atomic without a transaction). Its factors (when not given) and its
 * lifetime come from the rule of the migration 2026-11-26T2300-session-factor-rule and are answered as written. A
 * single sign-on session starts bound to no user, with the tenant whose identity provider it waits for.
 */
const insertSessionStatement = prepared<WrittenSession, SessionValues>(
  (_db, p) => sql<WrittenSession>`
    with rule as (
      select coalesce(${p.factors}::jsonb, password_session_factors(${p.email}::bool, ${p.sms}::bool, ${p.passkey}::bool)) as factors
    ), session as (
      insert into sessions (id, user_id, sso_tenant_id, factors, last_refreshed_at, proven_at, expires_at, refresh_token_hash, user_agent, network)
      select ${p.id}, ${p.userId}::bigint, ${p.ssoTenantId}::bigint, r.factors, ${p.now}::timestamptz,
        -- A credential was proven now (a password, a passkey, a coAlert code), except by a single sign-on session
        -- bound to nobody yet: its proof is the identity provider's answer.
        case when ${p.userId}::bigint is null then null else ${p.now}::timestamptz end,
        session_expires_at(r.factors, ${p.now}::timestamptz, ${p.expiresAt}::timestamptz), ${p.refreshTokenHash},
        ${p.userAgent}::text, ${p.network}::text
      from rule r
      returning id, factors, expires_at
    ), access as (
      update users set last_access_at = ${p.now}::timestamptz where id = ${p.userId}::bigint
    ), ${signInEvent(
      p,
      sql`(select ${p.userId}::bigint from session)`,
      sql`not exists (select 1 from session s, jsonb_each_text(s.factors) f where f.value = ${sql.lit('unverified')})`,
      sql`${p.eventStepUp}::bool`,
    )}, ${giveBack(p, sql`not exists (select 1 from session s, jsonb_each_text(s.factors) f where f.value = ${sql.lit('unverified')})`)}
    select id, factors, expires_at from session`,
);

/** What a session starts with: the factors as given, or a password sign-in's, from the second factors it has. */
export type StartingFactors = Factors | { password: { email: boolean; sms: boolean; passkey: boolean } };

export async function insertSessionWithToken(
  db: Executor,
  row: {
    id: string;
    userId: number | null;
    ssoTenantId?: number;
    factors: StartingFactors;
    expiresAt: Date;
    refreshTokenHash: string;
    client: SignInClient;
  },
  giveBack: GiveBackValues,
  event: SignInEventValues & { stepUp?: boolean } = noSignInEvent,
): Promise<WrittenSession> {
  const password = typeof row.factors.password === 'object' ? row.factors.password : null;
  const [written] = await insertSessionStatement(db, {
    ...giveBack,
    eventRegion: event.eventRegion,
    eventNetwork: event.eventNetwork,
    eventUserAgent: event.eventUserAgent,
    eventMethod: event.eventMethod,
    eventStepUp: event.stepUp ?? false,
    id: row.id,
    userId: row.userId,
    ssoTenantId: row.ssoTenantId ?? null,
    factors: password ? null : JSON.stringify(row.factors),
    // Read by the statement only when no factors are given (a password session): the defaults never are.
    // Stryker disable BooleanLiteral: equivalent, the statement's coalesce takes the given factors first
    email: password?.email ?? false,
    sms: password?.sms ?? false,
    passkey: password?.passkey ?? false,
    // Stryker restore BooleanLiteral
    expiresAt: row.expiresAt.toISOString(),
    refreshTokenHash: row.refreshTokenHash,
    userAgent: row.client.userAgent,
    network: row.client.network,
  });
  return written;
}

export const findSessionForUpdate = (db: Transaction<Database>, id: string) =>
  db.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/**
 * A session whose factor was just verified: its factors (when given; else as they are), the time of its proof, and
 * its lifetime by the rule of the migration 2026-11-26T2300-session-factor-rule (as long as any once nothing is left to prove).
 * Answers the factors as written.
 */
const settleStatement = prepared<
  { factors: Factors },
  { id: string; factors: string | null; now: string; settled: string }
>(
  (_db, p) => sql<{ factors: Factors }>`
    update sessions set factors = coalesce(${p.factors}::jsonb, factors), proven_at = ${p.now}::timestamptz,
      expires_at = session_expires_at(coalesce(${p.factors}::jsonb, factors), ${p.now}::timestamptz, ${p.settled}::timestamptz)
    where id = ${p.id}::uuid
    returning factors`,
);

export async function settleSession(
  db: Executor,
  values: { id: string; factors?: Factors; now: Date; settled: Date },
): Promise<Factors> {
  const [row] = await settleStatement(db, {
    id: values.id,
    factors: values.factors ? JSON.stringify(values.factors) : null,
    now: values.now.toISOString(),
    settled: values.settled.toISOString(),
  });
  return row.factors;
}

export async function revokeSessions(
  db: Executor,
  where: { sessionId?: string; userId?: number; exceptSessionId?: string },
  reason: string,
  now: Date,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('revoked_at', 'is', null);
  if (where.sessionId) query = query.where('id', '=', where.sessionId);
  if (where.userId) query = query.where('user_id', '=', where.userId);
  if (where.exceptSessionId) query = query.where('id', '!=', where.exceptSessionId);
  const [result] = await query.execute();
  return Number(result?.numUpdatedRows ?? 0);
}

/**
 * Gives the session a new current refresh token outside the rotation (the second factor verified): the
 * current token and its predecessor become history, so presenting either later counts as reuse.
 */
export const replaceRefreshToken = prepared<never, [sessionId: string, tokenHash: string, now: string]>(
  3,
  (_db, sessionId, tokenHash, now) => sql<never>`
  with old as (
    select refresh_token_hash as h from sessions where id = ${sessionId}::uuid
    union all select previous_refresh_token_hash from sessions where id = ${sessionId}::uuid
  ), replaced as (
    update sessions set refresh_token_hash = ${tokenHash}, previous_refresh_token_hash = null, previous_superseded_at = null where id = ${sessionId}::uuid
  )
  insert into refresh_tokens (token_hash, session_id, superseded_at) select h, ${sessionId}::uuid, ${now}::timestamptz from old where h is not null
  on conflict (token_hash) do nothing`,
);

export interface RotatedSession {
  id: string;
  user_id: number;
  factors: Factors;
}

/**
 * The rotation, one statement: when the presented token is the session's current one (and the session is live,
 * bound to a user and has no pending factor), it becomes the predecessor, the new token becomes current, the session's life is
 * extended, the presented token joins the history (for reuse detection) and the user's last access is noted.
 * Answers the session, or nothing when the token is not the current one. Its cost does not depend on how often
 * the session has rotated: one row by primary key, one history row by primary key.
 */
export const rotateRefreshToken = prepared<
  RotatedSession,
  { sessionId: string; tokenHash: string; nextHash: string; now: string; expiresAt: string; historyStart: string }
>(
  (_db, p) => sql<RotatedSession>`
  with s as (
    update sessions set previous_refresh_token_hash = refresh_token_hash, refresh_token_hash = ${p.nextHash},
      previous_superseded_at = ${p.now}::timestamptz, last_refreshed_at = ${p.now}::timestamptz, expires_at = ${p.expiresAt}::timestamptz
    where id = ${p.sessionId}::uuid and refresh_token_hash = ${p.tokenHash} and revoked_at is null and expires_at > ${p.now}::timestamptz
      and user_id is not null and not exists (select 1 from jsonb_each_text(factors) f where f.value = ${sql.lit('unverified')})
    returning id, user_id, factors
  ), history as (
    insert into refresh_tokens (token_hash, session_id, superseded_at) select ${p.tokenHash}, id, ${p.now}::timestamptz from s on conflict (token_hash) do nothing
  ), access as (
    update users set last_access_at = ${p.now}::timestamptz where id = (select user_id from s)
  ), expired_history as (
    -- History older than a week is of no more use: an index range of this session's oldest rows, usually none.
    delete from refresh_tokens where session_id = (select id from s) and superseded_at < ${p.historyStart}::timestamptz
  )
  select id, user_id, factors from s`,
);

export interface RefreshFallback {
  session_id: string | null;
  user_id: number | null;
  factors: Factors | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  is_current: boolean;
  /** The presented token is the current one's immediate predecessor, within the grace window, on this chain. */
  is_grace_predecessor: boolean;
  /** The session this token belongs to, when it is known at all (current, predecessor or history). */
  token_session: string | null;
  revoked_now: boolean;
}

/**
 * When the rotation did not apply, one more statement says why, and revokes the session when the token is one of
 * its superseded tokens other than the grace-window predecessor (reuse of a leaked token).
 */
export const refreshFallback = prepared<
  RefreshFallback,
  { sessionId: string; tokenHash: string; successorHash: string; now: string; graceStart: string }
>(
  (_db, p) => sql<RefreshFallback>`
  with s as (
    select id, user_id, factors, expires_at, revoked_at, refresh_token_hash = ${p.tokenHash} as is_current,
      coalesce(previous_refresh_token_hash = ${p.tokenHash} and previous_superseded_at > ${p.graceStart}::timestamptz and refresh_token_hash = ${p.successorHash}, false) as is_grace_predecessor,
      previous_refresh_token_hash = ${p.tokenHash} as is_predecessor
    from sessions where id = ${p.sessionId}::uuid
  ), t as (
    select session_id from refresh_tokens where token_hash = ${p.tokenHash}
    union all select id from sessions where refresh_token_hash = ${p.tokenHash}
    union all select id from s where is_predecessor
  ), reuse as (
    update sessions set revoked_at = ${p.now}::timestamptz, revoked_reason = ${sql.lit('refresh_token_reuse')}
    where id = ${p.sessionId}::uuid and revoked_at is null and expires_at > ${p.now}::timestamptz
      and exists (select 1 from t where t.session_id = ${p.sessionId}::uuid)
      and not (select is_current or is_grace_predecessor from s)
    returning id
  )
  select s.id as session_id, s.user_id, s.factors, s.expires_at, s.revoked_at, coalesce(s.is_current, false) as is_current,
    coalesce(s.is_grace_predecessor, false) as is_grace_predecessor, (select session_id from t limit 1) as token_session,
    exists (select 1 from reuse) as revoked_now
  from (select 1) one left join s on true`,
);

/** A coAlert code of a user who may still sign in, by the code's keyed hash. */
export async function findCoalertCode(db: Executor, codeHash: string) {
  return (
    db
      .selectFrom('coalert_codes')
      .innerJoin('users', 'users.id', 'coalert_codes.user_id')
      .select(['coalert_codes.expires_at'])
      .where('coalert_codes.code_hash', '=', codeHash)
      // A user deactivated by every tenant's directory (SCIM) cannot sign in by code either.
      .where('users.deactivated_at', 'is', null)
      .executeTakeFirst()
  );
}

/** One use of the coAlert code, unless it has reached its limit; answers its user when it was used. */
export async function useCoalertCode(db: Executor, codeHash: string) {
  return db
    .updateTable('coalert_codes')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('code_hash', '=', codeHash)
    .whereRef('usage_count', '<', 'usage_limit')
    .returning('user_id')
    .executeTakeFirst();
}

/** Whose session this is (null user: single sign-on waiting for its identity provider), if it exists. */
export async function sessionOwner(db: Executor, sessionId: string) {
  return db.selectFrom('sessions').select(['user_id']).where('id', '=', sessionId).executeTakeFirst();
}

/**
 * Every way into the account goes, in one statement (inside the caller's transaction): its password, its
 * passkeys and their open challenges, its coAlert codes, and its sessions with their refresh tokens, challenges
 * and single sign-on challenges (they cascade). What remains is a profile with no credential: an address
 * provisioned again starts with none.
 */
export const forgetCredentials = prepared<never, [userId: number]>(
  1,
  (_db, userId) => sql<never>`
  with password as (
    update users set password_hash = null where id = ${userId}::bigint
  ), passkey_rows as (
    delete from passkeys where user_id = ${userId}::bigint
  ), passkey_challenge_rows as (
    delete from passkey_challenges where user_id = ${userId}::bigint
  ), coalert_code_rows as (
    delete from coalert_codes where user_id = ${userId}::bigint
  )
  delete from sessions where user_id = ${userId}::bigint`,
);

/** The session proved the account's credentials again (a re-authentication): answers when, or nothing when it has ended. */
export async function noteProof(db: Executor, sessionId: string, now: Date) {
  return db
    .updateTable('sessions')
    .set({ proven_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('proven_at')
    .executeTakeFirst();
}

/** The signed-in account whose password a re-authentication checks (none when deactivated everywhere). */
export const reauthenticationAccount = (db: Executor, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'email_hash', 'password_hash'])
    .where('id', '=', userId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();

/**
 * A password reset removes every passkey of the account, each written to the audit log as removed: whoever added
 * one with a stolen session keeps no way in once the owner has proven her mailbox.
 */
export const removeAllPasskeys = prepared<{ id: string }, [userId: number]>(
  1,
  (_db, userId) => sql<{ id: string }>`
  with removed as (
    delete from passkeys where user_id = ${userId}::bigint returning id, user_id
  ), events as (
    insert into passkey_events (user_id, passkey_id, kind) select user_id, id, ${sql.lit('removed')} from removed
  ), open_challenges as (
    delete from passkey_challenges where user_id = ${userId}::bigint
  )
  select id from removed`,
);
