// A fresh, migrated database for one test file: in-memory PGlite started from the run's migrated snapshot, or,
// when TEST_DATABASE_URL is set, a schema of its own on that PostgreSQL server (dropped at the end).
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';

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
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = await openDatabase({ url: postgresUrl, schema, poolSize: 5 });
    await migrateToLatest(handle.db, schema);
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const c = new Client({ connectionString: postgresUrl });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      },
    };
  }
  const snapshot = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  const handle = await openDatabase(snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {});
  await migrateToLatest(handle.db);
  return handle;
}
