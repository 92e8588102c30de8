// A fresh, migrated database for one test file: in-memory PGlite started from the run's migrated snapshot, or,
// when TEST_DATABASE_URL is set, a database of its own on that PostgreSQL server copied from the run's migrated
// template (dropped at the end). Both copies are made once per run by global-setup.ts.
import { readFileSync } from 'node:fs';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { copyTemplate, dropDatabase } from './postgres-template';

export type TestBackend = 'pglite' | 'postgres';

export const postgresUrl = process.env.TEST_DATABASE_URL || null;

/** The backends a storage suite must pass on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const storageBackends: TestBackend[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The backend of a test file that names none: PostgreSQL when TEST_DATABASE_URL is set, unless its Jest project
 * asks for PGlite (CORE_TEST_BACKEND=pglite: the attack suites run on both).
 */
const defaultBackend = (): TestBackend =>
  postgresUrl && process.env.CORE_TEST_BACKEND !== 'pglite' ? 'postgres' : 'pglite';

export async function openTestDatabase(backend: TestBackend = defaultBackend()): Promise<DatabaseHandle> {
  if (backend === 'postgres') {
    if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
    // A database of its own, copied from the run's migrated template (global-setup.ts); a file run without that
    // set-up copies PostgreSQL's empty template and migrates it.
    const template = process.env.CORE_TEST_POSTGRES_TEMPLATE ?? 'template1';
    const copy = await copyTemplate(postgresUrl, template);
    let handle: DatabaseHandle;
    try {
      handle = await openDatabase({ url: copy.url, poolSize: 5 });
      await migrateToLatest(handle.db);
    } catch (error) {
      await dropDatabase(postgresUrl, copy.name);
      throw error;
    }
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await dropDatabase(postgresUrl, copy.name);
      },
    };
  }
  const snapshot = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  const handle = await openDatabase(snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {});
  await migrateToLatest(handle.db);
  return handle;
}
