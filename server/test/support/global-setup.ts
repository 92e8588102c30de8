// Starting PGlite and migrating it costs seconds: do it once for the whole run and let every test file start
// its own in-memory database from the migrated snapshot (a fraction of the cost).
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';

export default async function globalSetup(): Promise<void> {
  const handle = await openDatabase({});
  await migrateToLatest(handle.db);
  const dump = await handle.dump!();
  const file = join(tmpdir(), `core-api-test-snapshot-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.CORE_TEST_PGLITE_SNAPSHOT = file;
  await handle.close();
  // Database-wide extensions are created once, before test files migrate their own schemas in parallel.
  if (process.env.TEST_DATABASE_URL) {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query('create extension if not exists pg_trgm with schema public');
    await client.end();
  }
}
