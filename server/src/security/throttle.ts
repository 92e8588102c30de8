// Rate limits whose state lives in the database, so limits hold across every instance of a region: at most so many
// uses of a key per fixed window. Each check is one atomic statement, safe under concurrency on PostgreSQL and
// PGlite alike. The parts (rateLimitCheck, rateLimitAnswer, rateLimitVerdict) also open the sign-in's lockout
// statements (modules/sessions/lockouts.repository.ts), which count their rate limits in the same round trip.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { prepared, type Placeholders } from '../db/prepared';
import { tooManyRequests } from '../errors';

/** At most `limit` uses per fixed window of `windowSeconds`. */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/** How long a source stays familiar to an identity after its last successful sign-in (housekeeping forgets it then). */
export const familiarDays = 90;

/** The named values of a rate-limit check, to spread into the values of the statement that holds it. */
export interface RateLimitValues {
  now: string;
  consumeKeys: string[];
  consumeWindowEnds: string[];
  consumeLimits: number[];
}

export function rateLimitValues(now: Date, consume: [key: string, policy: RatePolicy][]): RateLimitValues {
  return {
    now: now.toISOString(),
    consumeKeys: consume.map(([key]) => key),
    consumeWindowEnds: consume.map(([, p]) => new Date(now.getTime() + p.windowSeconds * 1000).toISOString()),
    consumeLimits: consume.map(([, p]) => p.limit),
  };
}

/**
 * The common table expressions of a rate-limit check:
 * - `limited`: the keys already at their limit in the current window;
 * - `consumed`: each key counted once more in its window, only when nothing refuses (`refusedElsewhere`, an SQL
 *   condition of the statement around it, or `limited`: a refused request costs nothing).
 */
export const rateLimitCheck = (p: Placeholders<RateLimitValues>, refusedElsewhere: RawBuilder<unknown> = sql`false`) =>
  sql`limited as (
      select t.key, t.window_ends_at from throttles t join unnest(${p.consumeKeys}::text[], ${p.consumeLimits}::int[]) as policy (key, max) on policy.key = t.key
      where t.window_ends_at > ${p.now}::timestamptz and t.count >= policy.max),
    consumed as (
      insert into throttles (key, count, window_ends_at)
      select key, 1, window_ends_at from unnest(${p.consumeKeys}::text[], ${p.consumeWindowEnds}::timestamptz[]) as counted (key, window_ends_at)
      where not (${refusedElsewhere}) and not exists (select 1 from limited)
      on conflict (key) do update set
        count = case when throttles.window_ends_at <= ${p.now}::timestamptz then 1 else throttles.count + 1 end,
        window_ends_at = case when throttles.window_ends_at <= ${p.now}::timestamptz then excluded.window_ends_at else throttles.window_ends_at end
      returning key, count, window_ends_at)`;

/** An SQL condition, after rateLimitCheck: a rate limit is exceeded. */
export const rateLimitExceeded = (p: Placeholders<RateLimitValues>) =>
  sql`exists (select 1 from limited)
        or exists (select 1 from consumed c join unnest(${p.consumeKeys}::text[], ${p.consumeLimits}::int[]) as policy (key, max) on policy.key = c.key where c.count > policy.max)`;

/** The columns rateLimitVerdict reads. */
export const rateLimitAnswer = sql`(select json_agg(c) from consumed c) as consumed, (select json_agg(l) from limited l) as limited`;

export interface RateLimitAnswer {
  consumed: { key: string; count: number; window_ends_at: string }[] | null;
  limited: { key: string; window_ends_at: string }[] | null;
}

export const latest = (times: string[]) => new Date(Math.max(...times.map((t) => new Date(t).getTime())));

/** Throws 429 TOO_MANY_REQUESTS (with the wait) when a rate limit is exceeded. */
export function rateLimitVerdict(row: RateLimitAnswer, consume: [key: string, policy: RatePolicy][]): void {
  if (row.limited?.length) throw tooManyRequests(latest(row.limited.map((r) => r.window_ends_at)));
  const over = (row.consumed ?? []).filter((r) => r.count > consume.find(([key]) => key === r.key)![1].limit);
  if (over.length) throw tooManyRequests(latest(over.map((r) => r.window_ends_at)));
}

const consumeStatement = prepared<RateLimitAnswer, RateLimitValues>(
  (_db, p) => sql<RateLimitAnswer>`with ${rateLimitCheck(p)} select ${rateLimitAnswer}`,
);

export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** Counts one use of each key; past any limit throws 429 TOO_MANY_REQUESTS until that window ends. */
  async consume(...entries: [key: string, policy: RatePolicy][]): Promise<void> {
    const [row] = await consumeStatement(this.db, rateLimitValues(this.now(), entries));
    rateLimitVerdict(row, entries);
  }
}

/** The numbers, in one place (documented in docs/decisions.md); the sign-in lockouts are the sessions module's. */
export const policies = {
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
} satisfies Record<string, RatePolicy>;
