// The statement behind the job gauges, read when the metrics are scraped.
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** How many pending jobs are due at `now`, and when the oldest one not held by a worker became due. */
export async function selectDueJobBacklog(db: Db, now: Date) {
  return db
    .selectFrom('jobs')
    .select([
      sql<number>`count(*)`.as('depth'),
      sql<Date | null>`min(run_at) filter (where locked_until is null or locked_until <= ${now})`.as('oldest'),
    ])
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .executeTakeFirst();
}
