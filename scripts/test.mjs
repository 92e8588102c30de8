#!/usr/bin/env node
// `npm test`: the contract lint, the drift guard, the type check, the code lint and the contract tests from outside
// (side by side), then every Jest suite, then one closing line `N passed, N failed` that sums them all (each static
// check counts as one).
import './node-version.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

/** Seconds since `start`, for the closing lines (docs/testing.md compares runs by phase). */
const since = (start) => `${Math.round((performance.now() - start) / 1000)} s`;

function step(name, command, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const start = performance.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', ...env },
  });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${name} (${since(start)})`);
  return ok;
}

/** Runs a command with its output kept, for steps that run side by side and are printed one after the other. */
function quietly(command, args) {
  const start = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ status: null, output: `${output}${error}\n`, took: since(start) }));
    child.on('close', (status) => done({ status, output, took: since(start) }));
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();

// The static checks and the contract tests from outside need no Jest and do not meet (each check reads the tree;
// the contract tests start their own region on a free port in a temporary folder): they run side by side, which on
// two cores takes about as long as the longest of them rather than their sum (docs/testing.md), and each one's
// output is printed whole when it ends, in this order.
const staticChecks = [
  ['lint the contract (npm run lint:api)', 'lint:api'],
  ['generated/ is in step with openapi/ (npm run check:generated)', 'check:generated'],
  ['type check (npm run typecheck)', 'typecheck'],
  ['lint, with the module boundaries (npm run lint)', 'lint'],
  ['the code is formatted (npm run format:check; npx prettier --write to fix)', 'format:check'],
  ['the lock file serves `npm ci` on every platform (npm run check:lock)', 'check:lock'],
].map(([name, script]) => ({ name, run: quietly(npm, ['run', '--silent', script]) }));
// The contract from outside the code: Arazzo workflows and Portman contract tests against a live region
// (scripts/contract-tests.mjs, ~40 s); each workflow and each newman assertion counts. CONTRACT_TESTS=0 skips it.
const contract =
  process.env.CONTRACT_TESTS === '0' ? null : quietly(process.execPath, [join(root, 'scripts', 'contract-tests.mjs')]);

for (const { name, run } of staticChecks) {
  console.log(`\n▶ ${name}`);
  const { status, output, took } = await run;
  process.stdout.write(output);
  console.log(`${status === 0 ? '✔' : '✘'} ${name} (${took})`);
  if (status === 0) passed++;
  else failed++;
}
console.log(`\nstatic checks: ${since(started)}`);

if (contract) {
  console.log('\n▶ contract tests from outside (npm run test:contract)');
  const { status, output, took } = await contract;
  process.stdout.write(output);
  const counted = /(\d+) passed, (\d+) failed\s*$/.exec(output);
  if (counted) {
    passed += Number(counted[1]);
    failed += Number(counted[2]);
  }
  if (!counted || (status !== 0 && Number(counted[2]) === 0)) failed++;
  console.log(`${status === 0 ? '✔' : '✘'} contract tests from outside (${took})`);
}
console.log(`\nstatic checks and contract tests: ${since(started)}`);

// JEST_RESULTS=<file> keeps Jest's JSON report (per-file durations and test counts, docs/testing.md).
const out = mkdtempSync(join(tmpdir(), 'jest-results-'));
const results = process.env.JEST_RESULTS ? resolve(process.env.JEST_RESULTS) : join(out, 'results.json');
const jestOk = step('jest', process.execPath, [
  // What the files leave behind adds up: a full run in Jest's own process reached Node's default heap limit (about
  // 4 GB here) near its end. Jest's two workers (jest.config.ts) inherit these flags, and a worker holding more
  // than `workerIdleMemoryLimit` after a file is replaced; 8 GB is room enough either way.
  '--max-old-space-size=8192',
  '--experimental-vm-modules',
  '--disable-warning=ExperimentalWarning',
  join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
  // A full run on Node.js 24 has been seen to write its results and then keep Jest's own process alive ("Jest did
  // not exit one second after the test run has completed"), which would stall CI until its time limit: the
  // results are complete at that point, so Jest is told to exit.
  '--forceExit',
  '--json',
  `--outputFile=${results}`,
  ...extraArgs,
]);
if (existsSync(results)) {
  const report = JSON.parse(readFileSync(results, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  if (!jestOk && report.numFailedTests === 0)
    failed += Math.max(1, report.numFailedTestSuites + report.numRuntimeErrorTestSuites);
} else if (!jestOk) {
  failed++;
}
rmSync(out, { recursive: true, force: true });

// The register of security rules (scripts/rules/register.mjs) on what changed: each rule whose home file or tests
// changed since the merge base with main is broken in a scratch copy and must fail at least two tests; each counts
// as one. The full register is a nightly run in slices (docs/testing.md, "The register"). RULES=0 skips it.
if (process.env.RULES !== '0') {
  const rulesOk = step('security rules on what changed (npm run test:rules -- --changed)', process.execPath, [
    join(root, 'scripts', 'rules', 'run.mjs'),
    '--changed',
  ]);
  if (rulesOk) passed++;
  else failed++;
}

console.log(`\nnpm test: ${since(started)}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
