// The data directory every browser suite's regions start from. A region on an empty directory makes its embedded
// database (initdb) and migrates it before it seeds: about half of its start, paid by each of the run's regions
// (two per browser suite). The e2e project's set-up does that once, on a directory of its own (from the server
// suites' migrated snapshot when their set-up ran first, server/test/support/global-setup.ts), and each stack
// copies it for its regions (startStack). The copy holds the schema only: each region still runs its migrations
// (finding none left), makes its own development secrets and seeds the demo data with its own origins, as on an
// empty directory. What an empty directory goes through is the runtime suites' business (server/test/runtime).
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { openDatabase } from '../../../server/src/db/database';
import { migrateToLatest } from '../../../server/src/db/migrate';

/** The environment variable through which the set-up hands the template to the suites. */
export const REGION_TEMPLATE = 'CORE_E2E_REGION_DATA';

/** Files of a data directory that belong to one region, not to its database: never copied. */
const OWN_FILES = new Set(['dev-secrets.json', 'region.lock']);

/** An embedded database in `dataDir`, migrated to the latest schema and closed. */
export async function prepareRegionTemplate(dataDir: string): Promise<void> {
  const snapshot = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  const database = await openDatabase({
    dataDir,
    ...(snapshot && existsSync(snapshot) ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {}),
  });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}

/** A region's data directory `dataDir` made from the template, when the run's set-up made one. */
export function copyRegionTemplate(dataDir: string): void {
  const template = process.env[REGION_TEMPLATE];
  if (!template) return;
  cpSync(template, dataDir, { recursive: true, filter: (source) => !OWN_FILES.has(basename(source)) });
}
