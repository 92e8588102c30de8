// Migrating costs seconds: do it once for the whole run and let every test file start its own database from the
// migrated copy (a fraction of the cost). PGlite: the data directory of a migrated in-memory instance, dumped to
// a file that each file's instance loads. PostgreSQL (TEST_DATABASE_URL): a migrated template database that each
// file's database is copied from (postgres-template.ts). Several Jest projects name this set-up: the first one
// prepares both copies and the others find them through the environment (which Jest's workers inherit).
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { createTemplate } from './postgres-template';

export default async function globalSetup(): Promise<void> {
  const snapshot = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  if (!snapshot || !existsSync(snapshot)) {
    const handle = await openDatabase({});
    await migrateToLatest(handle.db);
    const dump = await handle.dump!();
    // A path named but not yet made (a mutation run names one for all of its runs) is where the copy goes.
    const file = snapshot || join(tmpdir(), `core-api-test-snapshot-${process.pid}.tar`);
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env.CORE_TEST_PGLITE_SNAPSHOT = file;
    await handle.close();
  }
  if (process.env.TEST_DATABASE_URL && !process.env.CORE_TEST_POSTGRES_TEMPLATE) {
    process.env.CORE_TEST_POSTGRES_TEMPLATE = await createTemplate(process.env.TEST_DATABASE_URL);
  }
}
