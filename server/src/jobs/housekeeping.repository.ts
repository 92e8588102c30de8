// The statements of housekeeping: one delete per table of rows nothing needs any more (housekeeping.ts runs them).
import type { Db } from '../db/database';
import { familiarDays } from '../security/throttle';

export const hourMs = 3_600_000;
export const dayMs = 24 * hourMs;
/**
 * Expired sign-in state is kept a day after it expires, so that a late answer still says "expired" rather than
 * "unknown", and so that a refresh token superseded within the day is still recognised as reused (sessions
 * keep a day of superseded tokens for reuse detection: sessions.repository.ts).
 */
export const signInStateGraceMs = dayMs;

export interface PurgeContext {
  db: Db;
  now: Date;
  jobRetentionMs: number;
  /** SECURITY_EVENT_RETENTION_DAYS (180 by default), in milliseconds. */
  securityEventRetentionMs: number;
}

export type Purge = (ctx: PurgeContext) => Promise<number>;

const removed = (result: { numDeletedRows: bigint }[]) => result.reduce((n, r) => n + Number(r.numDeletedRows), 0);
const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

/** One-time password proofs (verified_credentials): useless once expired (a minute after they were made). */
export const purgeProofs: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('verified_credentials').where('expires_at', '<=', now).execute());

/** Throttle rows whose window has closed and whose block, if any, has ended: they count nothing any more. */
export const purgeThrottles: Purge = async ({ db, now }) =>
  removed(
    await db
      .deleteFrom('throttles')
      .where('window_ends_at', '<=', now)
      .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', now)]))
      .execute(),
  );

/** Finished jobs (done, failed, cancelled) older than JOB_RETENTION_DAYS; their dedupe keys name ids or versions. */
export const purgeJobs: Purge = async ({ db, now, jobRetentionMs }) =>
  removed(
    await db
      .deleteFrom('jobs')
      .where('status', 'in', ['done', 'failed', 'cancelled'])
      .where('finished_at', '<', before(now, jobRetentionMs))
      .execute(),
  );

/** Refresh tokens superseded longer ago than reuse detection looks. */
export const purgeRefreshTokens: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('refresh_tokens').where('superseded_at', '<', before(now, signInStateGraceMs)).execute());

/** Sessions expired (or revoked) more than a day ago; their tokens and challenges go with them (cascade). */
export const purgeSessions: Purge = async ({ db, now }) =>
  removed(
    await db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<', before(now, signInStateGraceMs)),
          eb('revoked_at', '<', before(now, signInStateGraceMs)),
        ]),
      )
      .execute(),
  );

/** Second-factor challenges that ran out more than a day ago. */
export const purgeChallenges: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('challenges').where('valid_until', '<', before(now, signInStateGraceMs)).execute());

/** Single sign-on round trips that ran out more than a day ago. */
export const purgeSsoChallenges: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('sso_challenges').where('expires_at', '<', before(now, signInStateGraceMs)).execute());

/** Passkey challenges never answered: useless once expired (5 minutes; an answer then is refused either way). */
export const purgePasskeyChallenges: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute());

/** SAML assertion ids kept against replay, once the assertion itself has expired (it can no longer be replayed). */
export const purgeSamlAssertions: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('saml_assertions').where('expires_at', '<', now).execute());

/** Password reset and set links that ran out more than a day ago. */
export const purgePasswordTokens: Purge = async ({ db, now }) =>
  removed(await db.deleteFrom('password_tokens').where('expires_at', '<', before(now, signInStateGraceMs)).execute());

/**
 * Familiar sign-in sources not seen for `familiarDays` (90): the throttle no longer treats them as familiar, so the
 * row only keeps a trace of where an identity once signed in from. A sign-in from there again makes a fresh row.
 */
export const purgeSignInSources: Purge = async ({ db, now }) =>
  removed(
    await db
      .deleteFrom('sign_in_sources')
      .where('last_seen_at', '<=', before(now, familiarDays * dayMs))
      .execute(),
  );

/** Every purge, by the table it empties. */
/** Security events older than SECURITY_EVENT_RETENTION_DAYS (by the time they happened; the `at` index). */
export const purgeSecurityEvents: Purge = async ({ db, now, securityEventRetentionMs }) =>
  removed(await db.deleteFrom('security_events').where('at', '<', before(now, securityEventRetentionMs)).execute());

/**
 * Repeat windows of alarms (personal-alarms.repeats.ts) ended a day ago with no repeat waiting: the next alarm to
 * those recipients is delivered either way (a window made anew has ended long ago).
 */
export const purgeRepeatWindows: Purge = async ({ db, now }) =>
  removed(
    await db
      .deleteFrom('personal_alarm_repeat_windows')
      .where('repeats', '=', 0)
      .where('ends_at', '<', before(now, dayMs))
      .execute(),
  );

/** Hourly counts of alarms and messages older than the week the unusual-volume notice compares with, and a day. */
export const purgeTenantVolume: Purge = async ({ db, now }) =>
  removed(
    await db
      .deleteFrom('tenant_volume')
      .where('hour', '<', before(now, 8 * dayMs))
      .execute(),
  );

export const purges: Record<string, Purge> = {
  verified_credentials: purgeProofs,
  throttles: purgeThrottles,
  jobs: purgeJobs,
  refresh_tokens: purgeRefreshTokens,
  challenges: purgeChallenges,
  sessions: purgeSessions,
  sso_challenges: purgeSsoChallenges,
  passkey_challenges: purgePasskeyChallenges,
  saml_assertions: purgeSamlAssertions,
  password_tokens: purgePasswordTokens,
  sign_in_sources: purgeSignInSources,
  security_events: purgeSecurityEvents,
  personal_alarm_repeat_windows: purgeRepeatWindows,
  tenant_volume: purgeTenantVolume,
};
