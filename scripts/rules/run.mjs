// `npm run test:rules`: the register of security and safety rules (scripts/rules/register.mjs), each broken on
// purpose in a scratch copy of the repository and shown to be caught by at least two tests.
//
// For every chosen rule: its home text is found (exactly once) in its file, the flip is applied to that file in the
// scratch copy, the rule's tests run there (Jest, server project), and the file is restored before the next rule.
// The working tree is never written: the copy is made once per run (node_modules linked, not copied). The results go
// to reports/rules.json as `[{ rule, home, testsRun, testsFailed }]`, `home` as `file:line` of today's text. The
// run exits non-zero when any flip fails fewer than two tests, or a rule's text is not found exactly once.
//
// Usage:
//   npm run test:rules                      every rule
//   npm run test:rules -- <rule id> ...     the named rules
//   npm run test:rules -- --changed         the rules whose home file changed since the merge base with main
//   npm run test:rules -- --slice 2/4       the second of four equal slices (a nightly job runs them all)
//   npm run test:rules -- --list            the rules and their homes, nothing run
//   npm run test:rules -- --jobs 2          two rules at a time, each in a copy of its own
// --report <file> writes the results elsewhere (default reports/rules.json; a partial run never overwrites it
// unless named explicitly).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { rules } from './register.mjs';

const root = join(import.meta.dirname, '..', '..');
const minimumFailures = 2;
/** One rule's tests may take this long on a busy machine before the run gives up on them (counted as not caught). */
const perRuleTimeoutMs = 15 * 60_000;

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const flag = (name) => {
  const at = args.indexOf(name);
  if (at === -1) return false;
  args.splice(at, 1);
  return true;
};
const slice = option('--slice');
const jobsOption = option('--jobs');
const reportOption = option('--report');
const changedOnly = flag('--changed');
const listOnly = flag('--list');

/** Where a rule's text stands today: `file:line`, or an error naming how often it occurs. */
/** `base`: the tree to read (the working tree, or a worker's copy while it runs: edits made meanwhile stay out). */
function locate(rule, base = root) {
  const path = join(base, rule.home.file);
  if (!existsSync(path)) return { error: `${rule.home.file} does not exist` };
  const text = readFileSync(path, 'utf8');
  const from = rule.flip.from ?? rule.home.text;
  const homeCount = text.split(rule.home.text).length - 1;
  const flipCount = text.split(from).length - 1;
  if (homeCount !== 1) return { error: `${rule.home.file} holds the home text ${homeCount} times (expected once)` };
  if (flipCount !== 1) return { error: `${rule.home.file} holds the flip's text ${flipCount} times (expected once)` };
  const line = text.slice(0, text.indexOf(rule.home.text)).split('\n').length;
  return { home: `${rule.home.file}:${line}`, text, from };
}

// The register itself must hold together: unique ids, every home found exactly once, every test file there.
const problems = [];
const ids = new Set();
for (const rule of rules) {
  if (ids.has(rule.id)) problems.push(`${rule.id}: the id is used twice`);
  ids.add(rule.id);
  const where = locate(rule);
  if (where.error) problems.push(`${rule.id}: ${where.error}`);
  for (const test of rule.tests)
    if (!existsSync(join(root, test))) problems.push(`${rule.id}: the test ${test} does not exist`);
  if (!rule.ref) problems.push(`${rule.id}: no ASVS or spec reference`);
}
if (problems.length) {
  console.error(`the register does not hold together (a rule moved or rewritten needs its home moved with it):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(2);
}

/** The files changed since the merge base with main (committed and not), or null when no base is known. */
function changedFiles() {
  const git = (...a) => spawnSync('git', a, { cwd: root, encoding: 'utf8' });
  for (const base of ['origin/main', 'main']) {
    const mergeBase = git('merge-base', 'HEAD', base);
    if (mergeBase.status !== 0) continue;
    const diff = git('diff', '--name-only', mergeBase.stdout.trim());
    if (diff.status === 0) return diff.stdout.split('\n').filter(Boolean);
  }
  return null;
}

let chosen = rules;
if (args.length) {
  const unknown = args.filter((id) => !ids.has(id));
  if (unknown.length) {
    console.error(`unknown rule ${unknown.join(', ')}; the rules are:\n${rules.map((r) => `  ${r.id}`).join('\n')}`);
    process.exit(2);
  }
  chosen = rules.filter((r) => args.includes(r.id));
}
if (changedOnly) {
  const changed = changedFiles();
  if (changed === null) {
    console.log('test:rules --changed: no merge base with main is known here; no rule chosen');
    chosen = [];
  } else {
    const set = new Set(changed);
    // A rule is reached by a change to its home or to one of its tests (a test loosened is a rule unguarded).
    chosen = chosen.filter((r) => set.has(r.home.file) || r.tests.some((t) => [...set].some((f) => f.startsWith(t))));
  }
}
if (slice) {
  const [index, count] = slice.split('/').map(Number);
  if (!(index >= 1 && index <= count)) {
    console.error('--slice takes <index>/<count>, 1-based: --slice 1/4');
    process.exit(2);
  }
  chosen = chosen.filter((_, i) => i % count === index - 1);
}

if (listOnly) {
  for (const rule of chosen) console.log(`${rule.id.padEnd(34)} ${locate(rule).home}  (${rule.ref})`);
  process.exit(0);
}
if (chosen.length === 0) {
  console.log('test:rules: no rule to run');
  process.exit(0);
}

// The scratch copies: the tree as it is now (uncommitted edits included), without node_modules (linked) and the
// repository's history, one per worker. Jest's project reads its configuration and tests from the copy.
const scratch = mkdtempSync(join(tmpdir(), 'rules-'));
// Paths from the top of the tree: history, installed packages (linked below), reports, builds, development data.
const skipped = new Set([
  '.git',
  'node_modules',
  'server/node_modules',
  'web/node_modules',
  'reports',
  'coverage',
  'data',
  'test-output',
  'server/dist',
  'web/dist',
]);
function makeCopy(name) {
  const copy = join(scratch, name);
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => {
      const path = relative(root, source);
      return !skipped.has(path) && !path.startsWith('.stryker-tmp') && !path.startsWith('server/.db-types-check-');
    },
  });
  for (const modules of ['node_modules', 'server/node_modules', 'web/node_modules'])
    if (existsSync(join(root, modules))) symlinkSync(join(root, modules), join(copy, modules), 'dir');
  return copy;
}

const env = { ...process.env, CI: process.env.CI ?? 'true' };
// PGlite only: one store is enough to show a rule caught, and the run then needs no database server. A migrated copy
// is made once per worker and kept for the rules outside the migrations; a rule in a migration migrates afresh.
for (const name of ['CORE_TEST_PGLITE_SNAPSHOT', 'CORE_TEST_POSTGRES_TEMPLATE', 'TEST_DATABASE_URL']) delete env[name];

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
    process.exit(130);
  });
}

/** One rule in one worker's copy: the flip applied, the tests run, the file put back. */
async function runRule(rule, copy) {
  const { home, text, from } = locate(rule, copy);
  const path = join(copy, rule.home.file);
  writeFileSync(path, text.replace(from, rule.flip.to));
  const report = join(copy, '..', `${rule.id}.json`);
  const ruleStarted = Date.now();
  const inMigration = rule.home.file.includes('/db/migrations/');
  const snapshot = join(copy, '..', `${relative(scratch, copy)}-migrated.tar`);
  try {
    const child = spawn(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--disable-warning=ExperimentalWarning',
        'node_modules/jest/bin/jest.js',
        ...rule.tests,
        '--selectProjects',
        'server',
        '--maxWorkers=2',
        '--silent',
        '--forceExit',
        '--json',
        `--outputFile=${report}`,
      ],
      {
        cwd: copy,
        env: inMigration ? env : { ...env, CORE_TEST_PGLITE_SNAPSHOT: snapshot },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );
    running.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), perRuleTimeoutMs);
    await once(child, 'exit');
    clearTimeout(timer);
    running.delete(child);
  } finally {
    writeFileSync(path, text);
  }
  // A test that failed only by running out of time is not counted as catching the rule: on a loaded machine a test
  // times out without any flip (the same reason a mutant that timed out is not believed, docs/testing.md). Such
  // tests are reported as `testsTimedOut`, and a test file that could not run counts only when it did not time out.
  const timeout = /Exceeded timeout of \d+ ?ms|thrown: "Exceeded timeout/;
  let testsRun = 0;
  let testsFailed = 0;
  let testsTimedOut = 0;
  let failedTitles = [];
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    testsRun = json.numTotalTests;
    for (const file of json.testResults) {
      const name = relative(copy, file.name);
      for (const a of file.assertionResults.filter((a) => a.status === 'failed')) {
        if (a.failureMessages.length > 0 && a.failureMessages.every((m) => timeout.test(m))) testsTimedOut++;
        else {
          testsFailed++;
          failedTitles.push(`${name}: ${a.fullName}`);
        }
      }
      if (file.testExecError || (file.assertionResults.length === 0 && file.status === 'failed')) {
        const message = `${file.testExecError?.message ?? ''} ${file.message ?? ''}`;
        if (timeout.test(message)) testsTimedOut++;
        else {
          testsFailed++;
          failedTitles.push(`${name}: the file did not run (${message.trim().split('\n')[0].slice(0, 120)})`);
        }
      }
    }
  } catch {
    testsFailed = 0;
  }
  const ok = testsFailed >= minimumFailures;
  const seconds = ((Date.now() - ruleStarted) / 1000).toFixed(0);
  console.log(
    `${ok ? 'caught  ' : 'MISSED  '} ${String(testsFailed).padStart(3)} of ${String(testsRun).padStart(3)} failed${testsTimedOut ? `, ${testsTimedOut} timed out` : ''} (${seconds} s)  ${rule.id}  ${home}`,
  );
  if (process.env.RULES_VERBOSE) for (const title of failedTitles) console.log(`             ${title}`);
  return { rule: rule.id, home, testsRun, testsFailed, testsTimedOut, ok, failedTitles };
}

// The full run writes the committed report; a partial one only where told. It is written after every rule, so a
// run stopped part way leaves the rules it finished.
const reportFile = reportOption ?? (chosen === rules ? join(root, 'reports', 'rules.json') : null);
function writeReport() {
  if (!reportFile) return;
  mkdirSync(dirname(reportFile), { recursive: true });
  const done = results.filter(Boolean);
  const rows = done.map(({ rule, home, testsRun, testsFailed, testsTimedOut }) => ({
    rule,
    home,
    testsRun,
    testsFailed,
    testsTimedOut,
  }));
  writeFileSync(reportFile, `${JSON.stringify(rows, null, 2)}\n`);
}

// --jobs N runs N rules at a time, each worker in a copy of its own (default 1: the tests of one rule already use
// Jest's two workers).
const jobs = Math.max(1, Math.min(Number(jobsOption ?? 1) || 1, chosen.length));
const results = new Array(chosen.length);
const started = Date.now();
try {
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async (_, worker) => {
      const copy = makeCopy(`repo-${worker + 1}`);
      while (next < chosen.length) {
        const index = next++;
        results[index] = await runRule(chosen[index], copy);
        writeReport();
      }
    }),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

writeReport();
const missed = results.filter((r) => !r?.ok);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  missed.length
    ? `\n${missed.length} of ${results.length} rules failed fewer than ${minimumFailures} tests when broken (${minutes} min): ${missed.map((r) => r.rule).join(', ')}`
    : `\nevery rule (${results.length}) failed at least ${minimumFailures} tests when broken (${minutes} min)`,
);
process.exit(missed.length ? 1 : 0);
