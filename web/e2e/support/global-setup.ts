// The e2e project's set-up: the one web build its browser suites share (shared-build.ts) and the migrated data
// directory their regions start from (region-template.ts), made side by side.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGION_TEMPLATE, prepareRegionTemplate } from './region-template';
import { SHARED_BUILD, buildShared } from './shared-build';
import { TEST_OUTPUT } from './stack-paths';

export default async function globalSetup(): Promise<void> {
  await Promise.all([sharedBuild(), regionTemplate()]);
}

async function sharedBuild(): Promise<void> {
  if (process.env[SHARED_BUILD]) return;
  const dist = join(mkdtempSync(join(tmpdir(), 'sign-in-e2e-build-')), 'dist');
  const logs = join(TEST_OUTPUT, 'e2e-logs');
  mkdirSync(logs, { recursive: true });
  await buildShared(dist, join(logs, 'shared-vite-build.log'));
  process.env[SHARED_BUILD] = dist;
}

async function regionTemplate(): Promise<void> {
  if (process.env[REGION_TEMPLATE]) return;
  const dataDir = join(mkdtempSync(join(tmpdir(), 'sign-in-e2e-region-')), 'data');
  await prepareRegionTemplate(dataDir);
  process.env[REGION_TEMPLATE] = dataDir;
}
