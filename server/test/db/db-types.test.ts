// server/src/db/types.ts is generated from the migrations (scripts/db-types.ts, `npm run generate`), and
// `npm run check:generated` fails when it is out of step with them. Proven on a copy of server/src/db: as it is the
// check passes; with one more migration and the same types.ts it fails, and generating writes the new table.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'db-types.ts');

function dbTypes(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('generated row types (db/types.ts)', () => {
  // Inside server/, so the copy resolves the server's packages as the original does.
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(root, 'server', '.db-types-check-'));
    cpSync(join(root, 'server', 'src', 'db'), join(copy, 'db'), { recursive: true });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  test('the check passes while types.ts matches the migrations', () => {
    const run = dbTypes('--check', '--db-dir', join(copy, 'db'));
    expect(run).toEqual({ status: 0, output: expect.stringContaining('is up to date with the migrations') });
  }, 120_000);

  test('a new migration without regenerated types fails the check, and generating adds its table', () => {
    const db = join(copy, 'db');
    writeFileSync(
      join(db, 'migrations', '2099-01-01T0000-check-fixture.ts'),
      "import { sql, type Kysely } from 'kysely';\n\n" +
        'export async function up(db: Kysely<any>): Promise<void> {\n' +
        '  await sql`create table check_fixture (id bigint primary key, label text not null)`.execute(db);\n' +
        '}\n',
    );
    const migrate = readFileSync(join(db, 'migrate.ts'), 'utf8').replace(
      'const migrations: Record<string, Migration> = {',
      "import * as checkFixture from './migrations/2099-01-01T0000-check-fixture';\n" +
        'const migrations: Record<string, Migration> = {\n' +
        "  '2099-01-01T0000-check-fixture': checkFixture,",
    );
    writeFileSync(join(db, 'migrate.ts'), migrate);

    const stale = dbTypes('--check', '--db-dir', db);
    expect(stale).toEqual({ status: 1, output: expect.stringContaining('is out of step with the migrations') });

    expect(dbTypes('--db-dir', db).status).toBe(0);
    expect(readFileSync(join(db, 'types.ts'), 'utf8')).toMatch(
      /export interface CheckFixture \{\s+id: number;\s+label: string;\s+\}/,
    );
  }, 180_000);
});
