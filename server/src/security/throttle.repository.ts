// The statements of the database-held rate limits (throttle.ts decides with their answers): the parts a statement
// embeds to count its keys in the same round trip, and the statement that only counts.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { prepared, type Placeholders } from '../db/prepared';

/** The named values of a rate-limit check, to spread into the values of the statement that holds it. */
export interface RateLimitValues {
  now: string;
  consumeKeys: string[];
  consumeWindowEnds: string[];
  consumeLimits: number[];
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

const consumeStatement = prepared<RateLimitAnswer, RateLimitValues>(
  (_db, p) => sql<RateLimitAnswer>`with ${rateLimitCheck(p)} select ${rateLimitAnswer}`,
);

/** Counts one use of each key, unless one is at its limit; answers what was counted and what was refused. */
export async function countRateLimits(db: Db, values: RateLimitValues): Promise<RateLimitAnswer> {
  const [row] = await consumeStatement(db, values);
  return row;
}
