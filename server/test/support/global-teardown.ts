import { rmSync } from 'node:fs';
import { dropDatabase } from './postgres-template';

// Every project that named the set-up runs this: the first one removes the copies, the others find them gone.
// A mutation run keeps the PGlite copy for all of its Jest runs (one per mutant) and removes it itself at its end
// (CORE_TEST_PGLITE_SNAPSHOT_KEEP, scripts/mutation.mjs).
export default async function globalTeardown(): Promise<void> {
  const file = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  if (file && process.env.CORE_TEST_PGLITE_SNAPSHOT_KEEP !== '1') rmSync(file, { force: true });
  const template = process.env.CORE_TEST_POSTGRES_TEMPLATE;
  if (template && process.env.TEST_DATABASE_URL) await dropDatabase(process.env.TEST_DATABASE_URL, template);
}
