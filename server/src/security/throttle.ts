// Throttling whose state lives in the database, so limits hold across every instance of a region. Each
// operation is one atomic statement, safe under concurrency on PostgreSQL and PGlite alike.
//
// A lockout check is a few common table expressions that open a statement (lockoutCheck), an attempt's
// reservation that closes it (lockoutReservation) and the columns that say what happened (lockoutAnswer), read
// by lockoutVerdict. Throttle.guard is that statement on its own; a sign-in step that must also read or write
// its own rows in the same round trip writes its statement in its own repository with these parts, e.g.
// `with ${lockoutCheck(p)}, account as (…), ${lockoutReservation(p)} select ${lockoutAnswer(p)}, …`.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { prepared, type Placeholders } from '../db/prepared';
import { tooManyRequests } from '../errors';

/** At most `limit` uses per fixed window of `windowSeconds`. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/**
 * After `freeFailures` failures (counted until `windowSeconds` pass without one), every further failure locks
 * the key for `baseSeconds`, doubling each time, at most `maxSeconds`.
 */
export interface LockoutPolicy {
  freeFailures: number;
  windowSeconds: number;
  baseSeconds: number;
  maxSeconds: number;
}

/** What a statement's lockout check takes: rate limits to count, locks to respect, an attempt to reserve. */
export interface GuardOptions {
  consume?: [key: string, policy: RatePolicy][];
  lockoutKeys?: string[];
  attempt?: Attempt;
}

/**
 * A sign-in attempt's lockout keys, reserved (counted as a failure) in the guard's statement before the secret is
 * checked, so concurrent attempts never get more checks than the policy allows one after another. A key
 * `unlessFamiliar` is neither checked nor counted when the source is familiar to the identity (a completed
 * sign-in from it before). A key `stepUp` does not refuse the attempt while it is locked: the attempt goes on
 * without counting it, and the verdict says `stepUp` (the caller asks for more proof instead of answering 429).
 */
export interface Attempt {
  keys: { key: string; policy: LockoutPolicy; unlessFamiliar?: boolean; stepUp?: boolean }[];
  familiar?: { emailHash: string; sourceHash: string };
}

/** How long a source stays familiar to an identity after its last successful sign-in. */
export const familiarDays = 90;

/** The named values of a lockout check, to spread into the values of the statement that holds it. */
export interface LockoutValues {
  now: string;
  consumeKeys: string[];
  consumeWindowEnds: string[];
  consumeLimits: number[];
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
}

export function lockoutValues(now: Date, options: GuardOptions): LockoutValues {
  const consume = options.consume ?? [];
  const attempt = options.attempt?.keys ?? [];
  return {
    now: now.toISOString(),
    consumeKeys: consume.map(([key]) => key),
    consumeWindowEnds: consume.map(([, p]) => new Date(now.getTime() + p.windowSeconds * 1000).toISOString()),
    consumeLimits: consume.map(([, p]) => p.limit),
    lockoutKeys: options.lockoutKeys ?? [],
    familiarHash: options.attempt?.familiar?.emailHash ?? null,
    sourceHash: options.attempt?.familiar?.sourceHash ?? null,
    attemptKeys: attempt.map((a) => a.key),
    attemptUnlessFamiliar: attempt.map((a) => a.unlessFamiliar ?? false),
    attemptStepUp: attempt.map((a) => a.stepUp ?? false),
    attemptFree: attempt.map((a) => a.policy.freeFailures),
    attemptWindowSecs: attempt.map((a) => a.policy.windowSeconds),
    attemptBaseSecs: attempt.map((a) => a.policy.baseSeconds),
    attemptMaxSecs: attempt.map((a) => a.policy.maxSeconds),
  };
}

type P = Placeholders<LockoutValues>;

/**
 * The check, as the first common table expressions of a statement:
 * - `familiar` (column `yes`): the source completed a sign-in as this identity within familiarDays;
 * - `attempt_policy`: the attempt's keys with their policies, less those a familiar source skips;
 * - `stepped_up`: the attempt's step-up keys locked now (they ask for more proof instead of refusing);
 * - `held`: the lockout and attempt keys locked now, step-up keys aside;
 * - `limited`: the rate-limited keys already at their limit in the current window;
 * - `consumed`: each rate-limited key counted once more in its window, only when nothing above refuses (a
 *   refused request costs nothing);
 * - `guard_refused` (column `refused`): a rate limit is exceeded, or a lockout or attempt key is locked now.
 * A statement's own writes that must not happen when the request is refused check `guard_refused`.
 */
export const lockoutCheck = (p: P) => sql`familiar as (
      select exists (select 1 from sign_in_sources f where f.email_hash = ${p.familiarHash}::text and f.source_hash = ${p.sourceHash}::text
        and f.last_seen_at > ${p.now}::timestamptz - make_interval(days => ${sql.lit(familiarDays)})) as yes),
    attempt_policy as (
      select * from unnest(${p.attemptKeys}::text[], ${p.attemptUnlessFamiliar}::bool[], ${p.attemptStepUp}::bool[], ${p.attemptFree}::int[], ${p.attemptWindowSecs}::float8[], ${p.attemptBaseSecs}::float8[], ${p.attemptMaxSecs}::float8[])
        as a (key, unless_familiar, step_up, free, window_secs, base_secs, max_secs)
      where not (a.unless_familiar and (select yes from familiar))),
    stepped_up as (
      select t.key, t.blocked_until from throttles t join attempt_policy a on a.key = t.key
      where a.step_up and t.blocked_until > ${p.now}::timestamptz),
    held as (
      select t.key, t.blocked_until from throttles t
      where (t.key = any(${p.lockoutKeys}::text[]) or t.key in (select key from attempt_policy))
        and t.blocked_until > ${p.now}::timestamptz and t.key not in (select key from stepped_up)),
    limited as (
      select t.key, t.window_ends_at from throttles t join unnest(${p.consumeKeys}::text[], ${p.consumeLimits}::int[]) as policy (key, max) on policy.key = t.key
      where t.window_ends_at > ${p.now}::timestamptz and t.count >= policy.max),
    consumed as (
      insert into throttles (key, count, window_ends_at)
      select key, 1, window_ends_at from unnest(${p.consumeKeys}::text[], ${p.consumeWindowEnds}::timestamptz[]) as counted (key, window_ends_at)
      where not exists (select 1 from held) and not exists (select 1 from limited)
      on conflict (key) do update set
        count = case when throttles.window_ends_at <= ${p.now}::timestamptz then 1 else throttles.count + 1 end,
        window_ends_at = case when throttles.window_ends_at <= ${p.now}::timestamptz then excluded.window_ends_at else throttles.window_ends_at end
      returning key, count, window_ends_at),
    guard_refused as (
      select exists (select 1 from held) or exists (select 1 from limited)
        or exists (select 1 from consumed c join unnest(${p.consumeKeys}::text[], ${p.consumeLimits}::int[]) as policy (key, max) on policy.key = c.key where c.count > policy.max) as refused)`;

/** An SQL condition: the attempt is reserved (not refused, and not `unless`). */
const reservationDue = (unless?: RawBuilder<unknown>) =>
  unless
    ? sql`not (select refused from guard_refused) and not (${unless})`
    : sql`not (select refused from guard_refused)`;

/**
 * The attempt's reservation, as the common table expression `reserved`: each key counted as a failure (a new
 * window when the last one ended), locked for base × 2^(failures over the free ones) once past them, at most the
 * policy's longest lock. Skipped when the request is refused, and when `unless` (an SQL condition: a session
 * started on a probe's proof needs no second check); a stepped-up key is not counted. A key locked meanwhile by
 * a concurrent attempt is not counted again: lockoutVerdict refuses the request like a lock, and
 * Throttle.verdict gives back the keys this attempt did count.
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
      where ${reservationDue(unless)} and a.key not in (select key from stepped_up)
      on conflict (key) do update set
        count = ${next},
        window_ends_at = excluded.window_ends_at,
        blocked_until = case when ${next} > ${policy('free')}
          then ${p.now}::timestamptz + make_interval(secs => least(${policy('base_secs')} * power(2, ${next} - ${policy('free')} - 1), ${policy('max_secs')}))
          else throttles.blocked_until end
      where throttles.blocked_until is null or throttles.blocked_until <= ${p.now}::timestamptz
      returning key)`;
}

/** The columns lockoutVerdict reads, with the same `unless` as the reservation. */
export const lockoutAnswer = (
  p: P,
  unless?: RawBuilder<unknown>,
) => sql`(select json_agg(c) from consumed c) as consumed,
      (select json_agg(l) from limited l) as limited,
      (select json_agg(h) from held h) as held,
      (select json_agg(s) from stepped_up s) as stepped_up,
      (select json_agg(r) from reserved r) as reserved,
      (select count(*) from attempt_policy where key not in (select key from stepped_up)) as attempt_keys,
      ${reservationDue(unless)} as reservation_due,
      (select yes from familiar) as familiar`;

export interface LockoutAnswer {
  consumed: { key: string; count: number; window_ends_at: string }[] | null;
  limited: { key: string; window_ends_at: string }[] | null;
  held: { key: string; blocked_until: string }[] | null;
  stepped_up: { key: string; blocked_until: string }[] | null;
  reserved: { key: string }[] | null;
  attempt_keys: number | string;
  reservation_due: boolean;
  familiar: boolean | null;
}

export interface Verdict {
  /** The attempt keys reserved (to give back on success). */
  reserved: string[];
  /** The source is familiar to the identity. */
  familiar: boolean;
  /** A step-up key is locked until then: the attempt goes on only with more proof (else 429 until then); or null. */
  stepUp: Date | null;
}

/** A concurrent attempt locked a key between this statement's look and its reservation: refused like a lock. */
export class LostRace extends Error {
  constructor(
    readonly reserved: string[],
    readonly until: Date,
  ) {
    super('lost race');
  }
}

const latest = (times: string[]) => new Date(Math.max(...times.map((t) => new Date(t).getTime())));

/**
 * Reads the lockout answer: throws 429 TOO_MANY_REQUESTS (with the wait) when refused, LostRace when a
 * concurrent attempt locked a key meanwhile (Throttle.verdict gives back what was reserved), else what was
 * reserved.
 */
export function lockoutVerdict(row: LockoutAnswer, now: Date, options: GuardOptions): Verdict {
  const consume = options.consume ?? [];
  if (row.limited?.length) throw tooManyRequests(latest(row.limited.map((r) => r.window_ends_at)));
  const over = (row.consumed ?? []).filter((r) => r.count > consume.find(([key]) => key === r.key)![1].limit);
  if (over.length) throw tooManyRequests(latest(over.map((r) => r.window_ends_at)));
  if (row.held?.length) throw tooManyRequests(latest(row.held.map((r) => r.blocked_until)));
  const reserved = (row.reserved ?? []).map((r) => r.key);
  if (row.reservation_due && reserved.length < Number(row.attempt_keys)) {
    const attempt = options.attempt?.keys ?? [];
    throw new LostRace(
      reserved,
      new Date(now.getTime() + Math.min(...attempt.map((a) => a.policy.baseSeconds)) * 1000),
    );
  }
  const stepUp = row.stepped_up?.length ? latest(row.stepped_up.map((r) => r.blocked_until)) : null;
  return { reserved, familiar: row.familiar === true, stepUp };
}

/** The lockout check on its own: rate limits, lockouts and an attempt's reservation, one statement. */
const guardStatement = prepared<LockoutAnswer, LockoutValues>(
  (_db, p) => sql<LockoutAnswer>`with ${lockoutCheck(p)}, ${lockoutReservation(p)} select ${lockoutAnswer(p)}`,
);

export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** Counts one use of each key; past any limit throws 429 TOO_MANY_REQUESTS until that window ends. */
  async consume(...entries: [key: string, policy: RatePolicy][]): Promise<void> {
    await this.guard({ consume: entries });
  }

  /**
   * Rate limits, lockout checks and an attempt's reservation (`attempt`, see Attempt) in one statement. Rate
   * limits are checked before lockouts.
   */
  async guard(options: GuardOptions): Promise<Verdict> {
    const now = this.now();
    const [row] = await guardStatement(this.db, lockoutValues(now, options));
    return this.verdict(row, now, options);
  }

  /**
   * lockoutVerdict, and when a concurrent attempt locked a key meanwhile, what this refused attempt reserved is
   * given back before the 429 (a refused attempt costs nothing).
   */
  async verdict(row: LockoutAnswer, now: Date, options: GuardOptions): Promise<Verdict> {
    try {
      return lockoutVerdict(row, now, options);
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      const policyOf = (key: string) => options.attempt!.keys.find((a) => a.key === key)!.policy;
      await this.refund({ clear: [], refund: error.reserved.map((key) => [key, policyOf(key)]) });
      throw tooManyRequests(error.until);
    }
  }

  /**
   * Gives back what a successful attempt reserved: `clear` keys are deleted (consecutive failures end with a
   * success), `refund` keys count one attempt less; and, when given, the source becomes familiar to the identity.
   */
  async refund(options: {
    clear: string[];
    refund: [key: string, policy: LockoutPolicy][];
    familiar?: { emailHash: string; sourceHash: string };
  }): Promise<void> {
    await refundStatement(this.db, {
      clear: options.clear,
      refund: options.refund.map(([key]) => key),
      free: options.refund.map(([, p]) => p.freeFailures),
      emailHash: options.familiar?.emailHash ?? null,
      sourceHash: options.familiar?.sourceHash ?? null,
      now: this.now().toISOString(),
    });
  }

  /**
   * Ends an identity's sign-in failures on record: its account-wide counter, its second-factor failures and those
   * of every address.
   */
  async clearIdentity(emailHash: string): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(emailHash)) return;
    await this.db
      .deleteFrom('throttles')
      .where((eb) =>
        eb.or([
          eb('key', '=', `login:account:${emailHash}`),
          eb('key', '=', `login:code:${emailHash}`),
          eb('key', 'like', `login:pair:${emailHash}:%`),
        ]),
      )
      .execute();
  }
}

const refundStatement = prepared<
  never,
  {
    clear: string[];
    refund: string[];
    free: number[];
    emailHash: string | null;
    sourceHash: string | null;
    now: string;
  }
>(
  (_db, p) => sql<never>`
    with cleared as (delete from throttles where key = any(${p.clear}::text[])),
    refunded as (
      update throttles t set count = greatest(t.count - 1, 0),
        blocked_until = case when t.count - 1 <= r.free then null else t.blocked_until end
      from unnest(${p.refund}::text[], ${p.free}::int[]) as r (key, free)
      where t.key = r.key)
    insert into sign_in_sources (email_hash, source_hash, last_seen_at)
    select ${p.emailHash}::text, ${p.sourceHash}::text, ${p.now}::timestamptz where ${p.emailHash}::text is not null and ${p.sourceHash}::text is not null
    on conflict (email_hash, source_hash) do update set last_seen_at = excluded.last_seen_at`,
);

/** The numbers, in one place (documented in docs/decisions.md). */
export const policies = {
  /**
   * Failed logins, probes and one-time codes per identity hash and source address (the same whether or not the
   * account exists): bounds the guessing of one source against one account.
   */
  loginPerPair: { freeFailures: 5, windowSeconds: 86_400, baseSeconds: 30, maxSeconds: 3600 },
  /**
   * The account-wide ceiling: failures per identity hash from sources not familiar to it (a familiar source is
   * one the account completed a sign-in from within 90 days; the right password from there is never refused
   * because of failures from elsewhere). While it is locked, the right password from an unfamiliar source is a
   * step-up (a session waiting for an email code), never a 429.
   */
  loginPerAccount: { freeFailures: 20, windowSeconds: 86_400, baseSeconds: 60, maxSeconds: 3600 },
  /**
   * Failed logins, probes and coAlert codes per client address (an IPv4 address, an IPv6 network prefix: see
   * shared/client-address.ts) (familiar sources are not held back by it).
   */
  loginPerAddress: { freeFailures: 20, windowSeconds: 3600, baseSeconds: 60, maxSeconds: 3600 },
  /**
   * Consecutive wrong one-time codes per identity, across its pending sessions, from sources not familiar to it:
   * the 30th locks the second factor there (a year, in effect until a password reset or a completed sign-in,
   * which clear it; a familiar source can still complete one). Below NIST SP 800-63B's 100: docs/decisions.md.
   */
  secondFactorPerIdentity: {
    freeFailures: 29,
    windowSeconds: 365 * 86_400,
    baseSeconds: 365 * 86_400,
    maxSeconds: 365 * 86_400,
  },
  /** `GET /probes/idpDomain/{idpDomain}` per client address (the password probe follows the sign-in's lockouts). */
  probePerAddress: { limit: 60, windowSeconds: 60 },
  /**
   * `sso` grants per client address, whoever the email is: the grant checks no secret (the identity provider
   * does), so it moves no lockout; this bounds the pending sessions one address can open.
   */
  ssoGrantPerAddress: { limit: 60, windowSeconds: 60 },
  /** One-time codes sent, and passkey second-factor challenges asked for, per user. */
  otpSendPerUser: { limit: 10, windowSeconds: 3600 },
  /**
   * `POST /passkeys/authentication-options` per client address: it names nobody and checks nothing, so this only
   * bounds the challenges one address can leave behind (they expire in 5 minutes).
   */
  passkeyOptionsPerAddress: { limit: 60, windowSeconds: 60 },
  /** Passkey registration options per user. */
  passkeyRegistrationPerUser: { limit: 30, windowSeconds: 3600 },
  passwordResetPerHash: { limit: 3, windowSeconds: 3600 },
  passwordResetPerAddress: { limit: 20, windowSeconds: 3600 },
  passwordTokenPerAddress: { limit: 30, windowSeconds: 600 },
} satisfies Record<string, RatePolicy | LockoutPolicy>;
