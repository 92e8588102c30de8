// One instance at a time for start-up work that is not safe to run concurrently (migrations, the demo seed):
// several instances started at once on an empty PostgreSQL database otherwise race, and one fails on a
// duplicate key. A session-level advisory lock held on one pooled connection while the work runs on others;
// the lock is released with the connection if the process dies. PGlite has one process and needs none.
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';

export async function withAdvisoryLock<T>(
  database: Pick<DatabaseHandle, 'db' | 'kind'>,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  if (database.kind !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${`core:${name}`}))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${`core:${name}`}))`.execute(connection);
    }
  });
}
