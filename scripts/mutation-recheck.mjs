// npm run test:mutation:recheck <area> [--status Survived,NoCoverage] [--only parts] [--bail]: every mutant of the
// area's committed report with that status (survivors by default) tried again outside Stryker. The mutant's change is
// written into the source, the whole test files that hold a test reaching it run with plain Jest (every test of those
// files, not only the ones Stryker's coverage named; with --bail, up to the first file that fails), and the source is
// put back. A survivor that a test fails on here was not a survivor: the run's coverage or its state misled it. Prints
// one line per mutant and a count; exits 1 when any was killed here.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const here = join(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  // --root: the project whose report and sources are read (this one unless named; its tests say so).
  // --bail: each mutant's test files one at a time, stopping at the first that fails (enough to know it is killed), for
  // a long recheck of many mutants that reach a dozen files each.
  options: {
    status: { type: 'string' },
    root: { type: 'string' },
    only: { type: 'string' },
    bail: { type: 'boolean' },
  },
});
const root = resolve(values.root ?? here);
const [name] = positionals;
const reportPath = join(root, 'reports', 'mutation', `${name}.incremental.json`);
if (!name || !existsSync(reportPath))
  throw new Error(`name an area with a report in reports/mutation/ (${name} has none)`);
const statuses = new Set((values.status ?? 'Survived').split(','));
// --only: the source files whose path contains one of these (comma-separated), to split a long recheck in two.
const only = values.only?.split(',');

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const fileOfTest = new Map();
for (const [file, { tests }] of Object.entries(report.testFiles ?? {}))
  for (const test of tests) fileOfTest.set(test.id, file);

/** The offset of a report location (line and column both 1-based) in `text`. */
function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let i = 1; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

const jest = join(here, 'node_modules', 'jest', 'bin', 'jest.js');
const nodeFlags = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'];
const scratch = mkdtempSync(join(tmpdir(), 'mutation-recheck-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let restore;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    restore?.();
    process.exit(130);
  });

let tried = 0;
let killedHere = 0;
let skipped = 0;
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  if (only && !only.some((part) => file.includes(part))) continue;
  const path = join(root, file);
  const current = readFileSync(path, 'utf8');
  for (const mutant of mutants) {
    if (!statuses.has(mutant.status)) continue;
    const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement).slice(0, 60)}`;
    // A mutant no single test reaches is static (a module's constant, set once at load): every test of the area.
    const reaching = (mutant.coveredBy ?? []).map((id) => fileOfTest.get(id)).filter(Boolean);
    const testFiles = [...new Set(reaching.length ? reaching : Object.keys(report.testFiles ?? {}))];
    // The report's source is the code the mutant was made from; a file changed since cannot be rechecked faithfully.
    if (current !== source || testFiles.length === 0) {
      skipped++;
      console.log(
        `skipped  ${where} (${current !== source ? 'the file changed since the run' : 'no tests in the report'})`,
      );
      continue;
    }
    const start = offsetOf(source, mutant.location.start);
    const end = offsetOf(source, mutant.location.end);
    restore = () => writeFileSync(path, current);
    writeFileSync(path, source.slice(0, start) + mutant.replacement + source.slice(end));
    const env = { ...process.env };
    delete env.TEST_DATABASE_URL;
    const results = join(scratch, 'results.json');
    rmSync(results, { force: true });
    // Not spawnSync: a signal (Ctrl-C) must reach the handler above, which puts the source back, while Jest runs.
    const status = await new Promise((done) =>
      spawn(
        process.execPath,
        [
          ...nodeFlags,
          jest,
          '--ci',
          '--silent',
          '--json',
          `--outputFile=${results}`,
          ...(values.bail ? ['--bail', '--runInBand'] : []),
          ...testFiles,
        ],
        {
          cwd: root,
          env,
          stdio: 'ignore',
        },
      ).on('close', done),
    );
    restore();
    restore = undefined;
    tried++;
    if (status === 0) console.log(`survives ${where}`);
    else {
      killedHere++;
      const failing = existsSync(results)
        ? JSON.parse(readFileSync(results, 'utf8')).testResults.flatMap((file) =>
            file.assertionResults
              .filter((test) => test.status === 'failed')
              .map((test) => test.fullName)
              .concat(
                file.assertionResults.length ? [] : [file.message.split('\n').find(Boolean) ?? 'the file failed'],
              ),
          )
        : [];
      // Jest writes no results when --bail stops it.
      const stopped = values.bail ? 'a test file failed (--bail)' : `exit ${status}`;
      console.log(`killed   ${where}: ${failing.slice(0, 2).join('; ') || stopped}`);
    }
  }
}
console.log(
  `${tried} tried again: ${tried - killedHere} survive, ${killedHere} killed outside the run; ${skipped} skipped`,
);
process.exitCode = killedHere > 0 ? 1 : 0;
