/**
 * The migrated data directory the browser suites' regions start from (support/region-template.ts): it holds a
 * database migrated to the latest schema, and a region's copy of it leaves out what belongs to one region (its
 * development secrets, its lock), so two regions never share secrets. Without the set-up a region starts empty.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../server/src/db/database';
import { migrateToLatest } from '../../server/src/db/migrate';
import { REGION_TEMPLATE, copyRegionTemplate, prepareRegionTemplate } from './support/region-template';

let temp: string;
const saved = process.env[REGION_TEMPLATE];
beforeEach(() => (temp = mkdtempSync(join(tmpdir(), 'region-template-test-'))));
afterEach(() => {
  rmSync(temp, { recursive: true, force: true });
  if (saved === undefined) delete process.env[REGION_TEMPLATE];
  else process.env[REGION_TEMPLATE] = saved;
});

test('a region copies the template without the files that are one region’s own', () => {
  const template = join(temp, 'template');
  mkdirSync(join(template, 'base', '1'), { recursive: true });
  writeFileSync(join(template, 'PG_VERSION'), '17');
  writeFileSync(join(template, 'base', '1', '1259'), 'pages');
  writeFileSync(join(template, 'dev-secrets.json'), '{"secretKey":"another region’s"}');
  writeFileSync(join(template, 'region.lock'), '12345');
  process.env[REGION_TEMPLATE] = template;
  const region = join(temp, 'eu-north-1');
  copyRegionTemplate(region);
  expect(readdirSync(region, { recursive: true, encoding: 'utf8' }).sort()).toEqual([
    'PG_VERSION',
    'base',
    join('base', '1'),
    join('base', '1', '1259'),
  ]);
});

test('without the set-up a region starts on an empty directory', () => {
  delete process.env[REGION_TEMPLATE];
  const region = join(temp, 'sa-east-1');
  copyRegionTemplate(region);
  expect(() => readdirSync(region)).toThrow(/ENOENT/);
});

test('the template holds a database migrated to the latest schema', async () => {
  const dataDir = join(temp, 'data');
  await prepareRegionTemplate(dataDir);
  const database = await openDatabase({ dataDir });
  try {
    const applied = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(database.db)).rows[0].n);
    const before = await applied();
    expect(before).toBeGreaterThan(0);
    // Nothing is left for a region to apply.
    await migrateToLatest(database.db);
    expect(await applied()).toBe(before);
  } finally {
    await database.close();
  }
}, 60_000);
