// The sign-in's lockout statements: every SQL part that counts, refuses, reserves and gives back a sign-in
// attempt lives here, written once. Each operation is one atomic statement, safe under concurrency on PostgreSQL
// and PGlite alike.
//
// A lockout check is a few common table expressions that open a statement (lockoutCheck), an attempt's
// reservation that closes it (lockoutReservation) and the columns that say what happened (lockoutAnswer), read
// by lockoutVerdict (lockouts.ts). A sign-in step that must also read or write its own rows in the same round trip
// writes its statement with these parts, e.g.
// `with ${lockoutCheck(p)}, account as (…), ${lockoutReservation(p)} select ${lockoutAnswer(p)}, …`.
// What a successful attempt gives back (failures cleared, the address refunded, the source made familiar) is one
// fragment, giveBack, used by every statement that gives back.
import { sql, type RawBuilder } from 'kysely';
import type { Db, Executor } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import {
  familiarDays,
  rateLimitAnswer,
  rateLimitCheck,
  rateLimitExceeded,
  type RateLimitAnswer,
  type RateLimitValues,
} from '../../security/throttle';
import { identityKeyPattern } from './lockout-keys';

/** The named values of a lockout check, to spread into the values of the statement that holds it. */
export interface LockoutValues extends RateLimitValues {
  lockoutKeys: string[];
  familiarHash: string | null;
  sourceHash: string | null;
  attemptKeys: string[];
  attemptUnlessFamiliar: boolean[];
  attemptStepUp: boolean[];
  attemptFree: number[];
  attemptWindowSecs: number[];
  attemptBaseSecs: number[];
  attemptMaxSecs: number[];
  /** Each attempt key's cap on checked failures within its window (0: none). */
  attemptCap: number[];
}

type P = Placeholders<LockoutValues>;

/**
 * The check, as the first common table expressions of a statement:
 * - `familiar` (column `yes`): the source completed a sign-in as this identity within familiarDays;
 * - `attempt_policy`: the attempt's keys with their policies, less those a familiar source skips;
 * - `stepped_up`: the attempt's step-up keys locked now (they ask for more proof instead of refusing);
 * - `held`: the lockout and attempt keys locked now, step-up keys aside, and the attempt keys at their cap of checked
 *   failures (until their window ends), step-up keys included;
 * - `limited`, `consumed`: the rate limits (security/throttle.ts), counted only when nothing above refuses;
 * - `guard_refused` (column `refused`): a rate limit is exceeded, or a lockout or attempt key is locked now.
 * A statement's own writes that must not happen when the request is refused check `guard_refused`.
 */
export const lockoutCheck = (p: P) => sql`familiar as (
      select exists (select 1 from sign_in_sources f where f.email_hash = ${p.familiarHash}::text and f.source_hash = ${p.sourceHash}::text
        and f.last_seen_at > ${p.now}::timestamptz - make_interval(days => ${sql.lit(familiarDays)})) as yes),
    attempt_policy as (
      select * from unnest(${p.attemptKeys}::text[], ${p.attemptUnlessFamiliar}::bool[], ${p.attemptStepUp}::bool[], ${p.attemptFree}::int[], ${p.attemptWindowSecs}::float8[], ${p.attemptBaseSecs}::float8[], ${p.attemptMaxSecs}::float8[], ${p.attemptCap}::int[])
        as a (key, unless_familiar, step_up, free, window_secs, base_secs, max_secs, cap)
      where not (a.unless_familiar and (select yes from familiar))),
    stepped_up as (
      select t.key, t.blocked_until from throttles t join attempt_policy a on a.key = t.key
      where a.step_up and t.blocked_until > ${p.now}::timestamptz),
    held as (
      select t.key, t.blocked_until from throttles t
      where (t.key = any(${p.lockoutKeys}::text[]) or t.key in (select key from attempt_policy))
        and t.blocked_until > ${p.now}::timestamptz and t.key not in (select key from stepped_up)
      union all
      select t.key, t.window_ends_at from throttles t join attempt_policy a on a.key = t.key
      where a.cap > 0 and t.count >= a.cap and t.window_ends_at > ${p.now}::timestamptz),
    ${rateLimitCheck(p, sql`exists (select 1 from held)`)},
    guard_refused as (
      select exists (select 1 from held) or ${rateLimitExceeded(p)} as refused)`;

/** An SQL condition: the attempt is reserved (not refused, and not `unless`). */
const reservationDue = (unless?: RawBuilder<unknown>) =>
  unless
    ? sql`not (select refused from guard_refused) and not (${unless})`
    : sql`not (select refused from guard_refused)`;

/**
 * The attempt's reservation, as the common table expression `reserved`: each key counted as a failure (a new
 * window when the last one ended), locked for base × 2^(failures over the free ones) once past them, at most the
 * policy's longest lock. Skipped when the request is refused, and when `unless` (an SQL condition: a session
 * started on a probe's proof needs no second check). A stepped-up key is counted while it is locked (the ceiling
 * keeps counting, up to its cap). A key locked meanwhile by a concurrent attempt, or brought to its cap by one, is
 * not counted again: lockoutVerdict refuses the request like a lock, and verdict (lockouts.ts) gives back the keys
 * this attempt did count.
 */
export function lockoutReservation(p: P, unless?: RawBuilder<unknown>) {
  const next = sql`(case when throttles.window_ends_at <= ${p.now}::timestamptz then 1 else throttles.count + 1 end)`;
  const policy = (column: string) =>
    sql`(select ${sql.ref(`a.${column}`)} from attempt_policy a where a.key = throttles.key)`;
  return sql`reserved as (
      insert into throttles (key, count, window_ends_at, blocked_until)
      select a.key, 1, ${p.now}::timestamptz + make_interval(secs => a.window_secs),
        case when a.free < 1 then ${p.now}::timestamptz + make_interval(secs => a.base_secs) end
      from attempt_policy a
      where ${reservationDue(unless)}
      on conflict (key) do update set
        count = ${next},
        window_ends_at = excluded.window_ends_at,
        blocked_until = case when ${next} > ${policy('free')}
          then ${p.now}::timestamptz + make_interval(secs => least(${policy('base_secs')} * power(2, ${next} - ${policy('free')} - 1), ${policy('max_secs')}))
          else throttles.blocked_until end
      where (throttles.blocked_until is null or throttles.blocked_until <= ${p.now}::timestamptz or ${policy('step_up')})
        and (${policy('cap')} = 0 or throttles.count < ${policy('cap')} or throttles.window_ends_at <= ${p.now}::timestamptz)
      returning key)`;
}

/** The columns lockoutVerdict reads, with the same `unless` as the reservation. */
export const lockoutAnswer = (p: P, unless?: RawBuilder<unknown>) => sql`${rateLimitAnswer},
      (select json_agg(h) from held h) as held,
      (select json_agg(s) from stepped_up s) as stepped_up,
      (select json_agg(r) from reserved r) as reserved,
      (select count(*) from attempt_policy) as attempt_keys,
      ${reservationDue(unless)} as reservation_due`;

export interface LockoutAnswer extends RateLimitAnswer {
  held: { key: string; blocked_until: string }[] | null;
  stepped_up: { key: string; blocked_until: string }[] | null;
  reserved: { key: string }[] | null;
  attempt_keys: number | string;
  reservation_due: boolean;
}

/** The lockout check on its own: rate limits, lockouts and an attempt's reservation, one statement. */
export const guardStatement = prepared<LockoutAnswer, LockoutValues>(
  (_db, p) => sql<LockoutAnswer>`with ${lockoutCheck(p)}, ${lockoutReservation(p)} select ${lockoutAnswer(p)}`,
);

/** When a lockout key is locked until, if it is locked at `now` (one statement, the key's own row). */
const lockedUntilStatement = prepared<{ blocked_until: Date | string }, { key: string; now: string }>(
  (_db, p) =>
    sql<{
      blocked_until: Date | string;
    }>`select blocked_until from throttles where key = ${p.key}::text and blocked_until > ${p.now}::timestamptz`,
);

export async function lockedNow(db: Executor, key: string, now: Date): Promise<boolean> {
  return (await lockedUntilStatement(db, { key, now: now.toISOString() })).length > 0;
}

/** The named values of a give-back, to spread into the values of the statement that holds it. */
export interface GiveBackValues {
  now: string;
  /** Keys whose failures end (deleted). */
  clear: string[];
  /** Keys that count one attempt less, each unlocked once no more than its free failures remain. */
  refund: string[];
  free: number[];
  /** The identity and source made familiar, or null. */
  familiarHash: string | null;
  sourceHash: string | null;
}

/**
 * The give-back, as the common table expressions `cleared`, `refunded` and `made_familiar`. When `complete` (an SQL
 * condition of the statement around it: a sign-in whose session needs no further factor; else always), the
 * `clear` keys are deleted (consecutive failures end with a success) and the source is made familiar to the
 * identity when both are given; the `refund` keys not cleared count one attempt less either way (unlocked once no
 * more than their free failures remain): a right password whose session still waits for a factor gives back
 * only what it reserved.
 */
export const giveBack = (p: Placeholders<GiveBackValues>, complete: RawBuilder<unknown> = sql`true`) => sql`cleared as (
      delete from throttles where key = any(${p.clear}::text[]) and ${complete}),
    refunded as (
      update throttles t set count = greatest(t.count - 1, 0),
        blocked_until = case when t.count - 1 <= r.free then null else t.blocked_until end
      from unnest(${p.refund}::text[], ${p.free}::int[]) as r (key, free)
      where t.key = r.key and not (${complete} and t.key = any(${p.clear}::text[]))),
    made_familiar as (
      insert into sign_in_sources (email_hash, source_hash, last_seen_at)
      select ${p.familiarHash}::text, ${p.sourceHash}::text, ${p.now}::timestamptz
      where ${p.familiarHash}::text is not null and ${p.sourceHash}::text is not null and ${complete}
      on conflict (email_hash, source_hash) do update set last_seen_at = excluded.last_seen_at)`;

/** The give-back on its own. */
const giveBackStatement = prepared<never, GiveBackValues>((_db, p) => sql<never>`with ${giveBack(p)} select 1`);

export async function giveBackAttempt(db: Executor, values: GiveBackValues): Promise<void> {
  await giveBackStatement(db, values);
}

/**
 * Ends an identity's sign-in failures on record: its account-wide counter, its second-factor failures and those
 * of every address.
 */
export async function clearIdentityFailures(db: Db, emailHash: string): Promise<void> {
  const { exact, pattern } = identityKeyPattern(emailHash);
  if (!exact.length) return;
  await db
    .deleteFrom('throttles')
    .where((eb) => eb.or([eb('key', 'in', exact), eb('key', 'like', pattern)]))
    .execute();
}

/** True when the source completed a sign-in as this identity within familiarDays (as the lockout check reads it). */
export async function isFamiliarSource(db: Executor, values: { now: string; emailHash: string; sourceHash: string }) {
  const { rows } = await sql<{ yes: boolean }>`select exists (select 1 from sign_in_sources f
    where f.email_hash = ${values.emailHash} and f.source_hash = ${values.sourceHash}
      and f.last_seen_at > ${values.now}::timestamptz - make_interval(days => ${sql.lit(familiarDays)})) as yes`.execute(
    db,
  );
  return rows[0]?.yes === true;
}
