// The demo data (server/src/demo: the demo tenants and accounts, password `Demo-Password-1!`) written into a
// PostgreSQL database by the compiled build (server/dist, `npm run build`), for the out-of-process checks that run
// regions in production mode, which never seed. Migrates the database first, as a region would.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './region.mjs';

const require = createRequire(import.meta.url);

export async function seedDemo(databaseUrl, region = 'eu-north-1') {
  const dist = join(root, 'server', 'dist');
  const { loadConfig } = require(join(dist, 'config.js'));
  const { buildServices } = require(join(dist, 'bootstrap.js'));
  const { seedDemoData } = require(join(dist, 'demo', 'seed.js'));
  const dataDir = mkdtempSync(join(tmpdir(), 'core-seed-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    REGION: region,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const services = await buildServices(config);
  try {
    await seedDemoData(services);
  } finally {
    services.notifier.close();
    await services.outbound.close();
    await services.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
