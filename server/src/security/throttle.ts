// Throttling whose state lives in the database, so limits hold across every instance of a region. Each
// operation is one atomic upsert, safe under concurrency on PostgreSQL and PGlite alike.
import { sql } from 'kysely';
import type { Db } from '../db/database';
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

export class Throttle {
  constructor(private readonly db: Db, private readonly now: () => Date) {}

  /** Counts one use of each key; past any limit throws 429 TOO_MANY_REQUESTS until that window ends. */
  async consume(...entries: [key: string, policy: RatePolicy][]): Promise<void> {
    const now = this.now();
    const values = entries.map(([key, p]) => sql`(${key}, 1, ${new Date(now.getTime() + p.windowSeconds * 1000)}::timestamptz)`);
    const { rows } = await sql<{ key: string; count: number; window_ends_at: Date }>`
      insert into throttles (key, count, window_ends_at) values ${sql.join(values)}
      on conflict (key) do update set
        count = case when throttles.window_ends_at <= ${now}::timestamptz then 1 else throttles.count + 1 end,
        window_ends_at = case when throttles.window_ends_at <= ${now}::timestamptz then excluded.window_ends_at else throttles.window_ends_at end
      returning key, count, window_ends_at`.execute(this.db);
    const over = rows.filter((r) => r.count > entries.find(([key]) => key === r.key)![1].limit);
    if (over.length) throw tooManyRequests(new Date(Math.max(...over.map((r) => new Date(r.window_ends_at).getTime()))));
  }

  /** Throws 429 while any of the keys is locked out; answers which keys have failures on record. */
  async assertNotBlocked(...keys: string[]): Promise<Set<string>> {
    const rows = await this.db.selectFrom('throttles').select(['key', 'blocked_until']).where('key', 'in', keys).execute();
    const now = this.now();
    const until = rows.map((r) => r.blocked_until).filter((d): d is Date => d !== null && d > now);
    if (until.length) throw tooManyRequests(new Date(Math.max(...until.map((d) => d.getTime()))));
    return new Set(rows.map((r) => r.key));
  }

  /** Records a failure and returns the lockout it caused, if any. */
  async recordFailure(key: string, policy: LockoutPolicy): Promise<Date | null> {
    const now = this.now();
    const windowEnds = new Date(now.getTime() + policy.windowSeconds * 1000);
    const next = sql`(case when throttles.window_ends_at <= ${now}::timestamptz then 1 else throttles.count + 1 end)`;
    const { rows } = await sql<{ blocked_until: Date | null }>`
      insert into throttles (key, count, window_ends_at, blocked_until)
      values (${key}, 1, ${windowEnds}::timestamptz, ${policy.freeFailures < 1 ? sql`${now}::timestamptz + make_interval(secs => ${policy.baseSeconds})` : sql`null`})
      on conflict (key) do update set
        count = ${next},
        window_ends_at = ${windowEnds}::timestamptz,
        blocked_until = case when ${next} > ${policy.freeFailures}
          then ${now}::timestamptz + make_interval(secs => least(${policy.baseSeconds}::float8 * power(2, ${next} - ${policy.freeFailures} - 1), ${policy.maxSeconds}::float8))
          else throttles.blocked_until end
      returning blocked_until`.execute(this.db);
    const until = rows[0].blocked_until;
    return until && new Date(until) > now ? new Date(until) : null;
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', key).execute();
  }
}

/** The numbers, in one place (documented in docs/decisions.md). */
export const policies = {
  /** Failed logins or probes per identity hash (the same whether or not the account exists). */
  loginPerAccount: { freeFailures: 5, windowSeconds: 3600, baseSeconds: 30, maxSeconds: 900 },
  /** Failed logins, probes and coAlert codes per client address. */
  loginPerAddress: { freeFailures: 20, windowSeconds: 3600, baseSeconds: 60, maxSeconds: 3600 },
  probePerAddress: { limit: 60, windowSeconds: 60 },
  probePerHash: { limit: 10, windowSeconds: 60 },
  otpSendPerUser: { limit: 10, windowSeconds: 3600 },
  passwordResetPerHash: { limit: 3, windowSeconds: 3600 },
  passwordResetPerAddress: { limit: 20, windowSeconds: 3600 },
  passwordTokenPerAddress: { limit: 30, windowSeconds: 600 },
} satisfies Record<string, RatePolicy | LockoutPolicy>;
