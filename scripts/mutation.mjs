// npm run test:mutation [area ...]: StrykerJS over each area of stryker.config.mjs (all when none is named), one
// after the other, on the embedded database. Reports and incremental files in reports/mutation/; the table of
// scores is printed at the end (docs/testing.md keeps the latest).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { areas } from './mutation-areas.mjs';

const root = join(import.meta.dirname, '..');
const names = process.argv.slice(2);
for (const name of names) if (!areas[name]) throw new Error(`unknown area ${name}: ${Object.keys(areas).join(', ')}`);

const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const nodeFlags = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'];
// The run's own files (the tests by file, the migrated database), removed when it ends.
const scratch = mkdtempSync(join(tmpdir(), 'mutation-run-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * The area's tests by file, for test-support/mutation-sequencer.cjs: Jest collects every test of the area's files
 * and runs none (a pattern nothing matches). Written to a file whose path the returned environment names.
 */
function listTests(name, env) {
  const report = join(scratch, `${name}.jest.json`);
  const run = spawnSync(
    process.execPath,
    [...nodeFlags, jest, '-c', 'jest.mutation.config.ts', '-t', '(?!)', '--json', `--outputFile=${report}`],
    {
      cwd: root,
      env: { ...env, MUTATION_TESTS: JSON.stringify(areas[name].tests) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (run.status !== 0 || !existsSync(report)) throw new Error(`listing the tests of ${name} failed`);
  const namesByFile = {};
  for (const file of JSON.parse(readFileSync(report, 'utf8')).testResults)
    namesByFile[relative(root, file.name).split('\\').join('/')] = file.assertionResults.map((test) => test.fullName);
  const list = join(scratch, `${name}.json`);
  writeFileSync(list, JSON.stringify(namesByFile));
  return { ...env, MUTATION_TEST_NAMES: list };
}

/** A report's text with the project's absolute paths (and those of Stryker's sandboxes in it) made relative. */
function relativePaths(text) {
  const escaped = JSON.stringify(root)
    .slice(1, -1)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(new RegExp(`${escaped}/\\.stryker-tmp/sandbox-[A-Za-z0-9]+/`, 'g'), '')
    .replace(new RegExp(`"projectRoot":( ?)"${escaped}"`, 'g'), '"projectRoot":$1"."')
    .replace(new RegExp(`${escaped}/`, 'g'), '');
}
const rows = [];
let failed = false;
for (const name of names.length ? names : Object.keys(areas)) {
  const env = { ...process.env, MUTATION_AREA: name };
  // Mutants run on the embedded database: hermetic, and no shared server to leave half-written.
  delete env.TEST_DATABASE_URL;
  // Every mutant is a Jest run, and each would migrate a database to copy from and remove it at its end: the
  // migrated copy is made by the first run and kept for the rest (server/test/support/global-setup.ts).
  env.CORE_TEST_PGLITE_SNAPSHOT = join(scratch, 'migrated.tar');
  env.CORE_TEST_PGLITE_SNAPSHOT_KEEP = '1';
  const run = spawnSync(process.execPath, [stryker, 'run'], { cwd: root, env: listTests(name, env), stdio: 'inherit' });
  if (run.status !== 0) failed = true;
  // The reports are committed: paths inside them (stack traces, the project's root, Stryker's sandbox) are made
  // relative to the project, so they name no machine.
  for (const file of [`${name}.json`, `${name}.incremental.json`]) {
    const path = join(root, 'reports', 'mutation', file);
    if (existsSync(path)) writeFileSync(path, relativePaths(readFileSync(path, 'utf8')));
  }
  const report = join(root, 'reports', 'mutation', `${name}.json`);
  if (!existsSync(report)) continue;
  for (const [file, { mutants }] of Object.entries(JSON.parse(readFileSync(report, 'utf8')).files)) {
    const count = (status) => mutants.filter((m) => m.status === status).length;
    const [killed, timeout, survived, noCoverage, ignored] = [
      'Killed',
      'Timeout',
      'Survived',
      'NoCoverage',
      'Ignored',
    ].map(count);
    const tested = killed + timeout + survived + noCoverage;
    // Stryker's score: a mutant that times out counts as detected; one no test reaches counts as survived.
    const score = tested ? `${((100 * (killed + timeout)) / tested).toFixed(1)} %` : 'n/a';
    rows.push({ area: name, file, killed, timeout, survived, noCoverage, ignored, score });
  }
}
console.log(
  '\n| Area | File | Killed | Timed out | Survived | No coverage | Ignored | Score |\n|---|---|---:|---:|---:|---:|---:|---:|',
);
for (const r of rows)
  console.log(
    `| ${r.area} | \`${r.file}\` | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.ignored} | ${r.score} |`,
  );
process.exit(failed ? 1 : 0);
