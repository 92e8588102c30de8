// Throttling whose state lives in the database, so limits hold across every instance of a region. Each
// operation is one atomic upsert, safe under concurrency on PostgreSQL and PGlite alike.
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/database';
import { compileOnce, placeholder, type Bound } from '../db/prepared';
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
    await this.guard({ consume: entries, lockoutKeys: [] });
  }

  /** Throws 429 while any of the keys is locked out; answers which keys have failures on record. */
  async assertNotBlocked(...keys: string[]): Promise<Set<string>> {
    return (await this.guard({ lockoutKeys: keys })).onRecord;
  }

  /**
   * `consume` and `assertNotBlocked` in one statement, with the caller's own reads or writes riding along
   * (`alongside`: named prepared fragments with their values, each answered as its first row in JSON, or null):
   * a sign-in step makes one round trip to the database instead of three. Rate limits are checked before
   * lockouts. A fragment may read the fragments before it by their names, and `guard_refused` (one row, one
   * column `refused`: true when a limit or a lockout refuses this request), so that its writes happen only when
   * the guard lets the request through. The keys travel as arrays, so the statement's text depends only on what
   * rides along and is compiled once for each such set (see db/prepared.ts).
   */
  async guard<A extends Record<string, Bound> = Record<never, never>>(options: {
    consume?: [key: string, policy: RatePolicy][];
    lockoutKeys: string[];
    alongside?: A;
  }): Promise<{ onRecord: Set<string>; alongside: { [K in keyof A]: Record<string, unknown> | null } }> {
    const now = this.now();
    const consume = options.consume ?? [];
    const alongside = Object.entries(options.alongside ?? {});
    const values: unknown[] = [
      now.toISOString(),
      consume.map(([key]) => key),
      consume.map(([, p]) => new Date(now.getTime() + p.windowSeconds * 1000).toISOString()),
      options.lockoutKeys,
      consume.map(([, p]) => p.limit),
    ];
    for (const [, bound] of alongside) values.push(...bound.values);
    const { rows } = await this.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(guardText(this.db, alongside), values));
    const row = rows[0];
    const used = (row.consumed ?? []) as { key: string; count: number; window_ends_at: string }[];
    const over = used.filter((r) => r.count > consume.find(([key]) => key === r.key)![1].limit);
    if (over.length) throw tooManyRequests(new Date(Math.max(...over.map((r) => new Date(r.window_ends_at).getTime()))));
    const recorded = (row.recorded ?? []) as { key: string; blocked_until: string | null }[];
    const until = recorded.map((r) => (r.blocked_until === null ? 0 : new Date(r.blocked_until).getTime())).filter((t) => t > now.getTime());
    if (until.length) throw tooManyRequests(new Date(Math.max(...until)));
    const answers = Object.fromEntries(alongside.map(([name]) => [name, (row[name] ?? null) as Record<string, unknown> | null]));
    return { onRecord: new Set(recorded.map((r) => r.key)), alongside: answers as { [K in keyof A]: Record<string, unknown> | null } };
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

/** The guard's five values come first: now, the keys to count and their windows' ends, the lockout keys, the limits. */
const guardArity = 5;
const guardTexts = new Map<string, string>();

/** The guard statement's text for this set of fragments riding along, compiled on first use. */
function guardText(db: Db, alongside: [string, Bound][]): string {
  const shape = alongside.map(([name, bound]) => `${name}:${bound.fragment.id}`).join(',');
  let text = guardTexts.get(shape);
  if (text) return text;
  let next = guardArity;
  const ctes = alongside.flatMap(([name, { fragment }]) => {
    const params = Array.from({ length: fragment.arity }, () => placeholder(++next));
    const before = fragment.before?.(db, ...params) ?? [];
    return [...before, [name, fragment.build(db, ...params)] as const].map(([cte, query]) => sql`, ${sql.id(cte)} as (${query})`);
  });
  const [now, keys, windowEnds, lockoutKeys, limits] = [1, 2, 3, 4, 5].map(placeholder);
  const query = sql`with consumed as (
      insert into throttles (key, count, window_ends_at)
      select key, 1, window_ends_at from unnest(${keys}::text[], ${windowEnds}::timestamptz[]) as counted (key, window_ends_at)
      on conflict (key) do update set
        count = case when throttles.window_ends_at <= ${now}::timestamptz then 1 else throttles.count + 1 end,
        window_ends_at = case when throttles.window_ends_at <= ${now}::timestamptz then excluded.window_ends_at else throttles.window_ends_at end
      returning key, count, window_ends_at),
    guard_refused as (
      select exists (select 1 from consumed c join unnest(${keys}::text[], ${limits}::int[]) as policy (key, max) on policy.key = c.key where c.count > policy.max)
        or exists (select 1 from throttles t where t.key = any(${lockoutKeys}::text[]) and t.blocked_until > ${now}::timestamptz) as refused)${sql.join(ctes, sql``)}
    select (select json_agg(c) from consumed c) as consumed,
      (select json_agg(json_build_object('key', t.key, 'blocked_until', t.blocked_until)) from throttles t where t.key = any(${lockoutKeys}::text[])) as recorded
      ${sql.join(alongside.map(([name]) => sql`, (select row_to_json(a) from ${sql.id(name)} a limit 1) as ${sql.id(name)}`), sql``)}`;
  text = compileOnce(db, query, next);
  guardTexts.set(shape, text);
  return text;
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
