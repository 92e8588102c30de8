// A PostgreSQL connection lost while the app holds it (a restart of PostgreSQL while a transaction waits between
// two statements) used to emit 'error' on a pg client nobody listened to, which crashed the region; found by
// `npm run test:faults` (PostgreSQL restart under load). Runs when TEST_DATABASE_URL names a PostgreSQL server.
import { sql } from 'kysely';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { postgresUrl } from '../support/database';

(postgresUrl ? describe : describe.skip)('a PostgreSQL connection lost while checked out', () => {
  test('fails only the work on it; the process lives and the next query gets a new connection', async () => {
    const handle = await openDatabase({ url: postgresUrl!, poolSize: 2 });
    const admin = new Client({ connectionString: postgresUrl! });
    await admin.connect();
    try {
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          // The FATAL message arrives while the connection is checked out and idle in the transaction.
          await new Promise((r) => setTimeout(r, 300));
          await sql`select 1`.execute(trx);
          return 'committed';
        })
        .catch((error: Error) => `failed: ${error.message}`);
      expect(outcome).toMatch(/^failed: /);
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
