#!/usr/bin/env node
// `npm test`: the contract lint, the drift guard, the type check, the code lint and every Jest suite, then one
// closing line `N passed, N failed` that sums them all (each static check counts as one).
import { spawnSync } from 'node:child_process';
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

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();
for (const [name, script] of [
  ['lint the contract (npm run lint:api)', 'lint:api'],
  ['generated/ is in step with openapi/ (npm run check:generated)', 'check:generated'],
  ['type check (npm run typecheck)', 'typecheck'],
  ['lint, with the module boundaries (npm run lint)', 'lint'],
  ['the code is formatted (npm run format:check; npx prettier --write to fix)', 'format:check'],
  ['the lock file serves `npm ci` on every platform (npm run check:lock)', 'check:lock'],
]) {
  if (step(name, npm, ['run', '--silent', script])) passed++;
  else failed++;
}

console.log(`\nstatic checks: ${since(started)}`);

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

// The contract from outside the code: Arazzo workflows and Portman contract tests against a live region
// (scripts/contract-tests.mjs, ~40 s); each workflow and each newman assertion counts. CONTRACT_TESTS=0 skips it.
if (process.env.CONTRACT_TESTS !== '0') {
  const contractStarted = performance.now();
  console.log('\n▶ contract tests from outside (npm run test:contract)');
  const contract = spawnSync(process.execPath, [join(root, 'scripts', 'contract-tests.mjs')], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(contract.stdout ?? '');
  process.stderr.write(contract.stderr ?? '');
  const counted = /(\d+) passed, (\d+) failed\s*$/.exec(contract.stdout ?? '');
  if (counted) {
    passed += Number(counted[1]);
    failed += Number(counted[2]);
  }
  if (!counted || (contract.status !== 0 && Number(counted[2]) === 0)) failed++;
  console.log(`${contract.status === 0 ? '✔' : '✘'} contract tests from outside (${since(contractStarted)})`);
}

console.log(`\nnpm test: ${since(started)}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
