// Hand-made mutants of the sign-in's SQL rules, where a mutation tool does not reach: each literal factor and
// lifetime of the rule (the functions of the migration 2026-11-26T2300-session-factor-rule, the statements that
// read "nothing left to prove", the session lifetime they are given) is flipped on its own, the sign-in, session and
// probe tests run against it, and the file is restored. A flip that fails fewer than two tests means the rule can
// change unnoticed: the script then exits non-zero.
//
// The tests build their database from the migrations once per run (server/test/support/global-setup.ts), so a run
// here never reuses a migrated copy made before the flip: the environment that names one is left out.
//
// Usage: npm run test:sql-flips [-- <flip name> ...]  (all flips when none is named)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const migration = 'server/src/db/migrations/2026-11-26T2300-session-factor-rule.ts';
const repository = 'server/src/modules/sessions/sessions.repository.ts';
const lifetimes = 'server/src/modules/sessions/lifetimes.ts';
const tests = ['server/test/sessions', 'server/test/probes'];
const minimumFailures = 2;

/** Each flip: a text that occurs exactly once in its file, and what it becomes. */
const flips = [
  {
    name: 'password starts unverified',
    file: migration,
    from: `jsonb_build_object('password', 'verified')`,
    to: `jsonb_build_object('password', 'unverified')`,
  },
  {
    name: 'email code starts verified',
    file: migration,
    from: `jsonb_build_object('otpEmail', 'unverified')`,
    to: `jsonb_build_object('otpEmail', 'verified')`,
  },
  {
    name: 'SMS code starts verified',
    file: migration,
    from: `jsonb_build_object('otpSms', 'unverified')`,
    to: `jsonb_build_object('otpSms', 'verified')`,
  },
  {
    name: 'passkey starts verified',
    file: migration,
    from: `jsonb_build_object('passkey', 'unverified')`,
    to: `jsonb_build_object('passkey', 'verified')`,
  },
  { name: 'pending lifetime 16 minutes', file: migration, from: `interval '15 minutes'`, to: `interval '16 minutes'` },
  {
    name: 'lifetime: pending means verified',
    file: migration,
    from: `f.value = 'unverified')\n        then`,
    to: `f.value = 'verified')\n        then`,
  },
  {
    name: 'sign-in statement: complete means a verified factor',
    file: repository,
    from: "f.value = ${sql.lit('unverified')})),\n  access as",
    to: "f.value = ${sql.lit('verified')})),\n  access as",
  },
  {
    name: 'session insert: complete means a verified factor',
    file: repository,
    from: "f.value = ${sql.lit('unverified')})`)}\n    select id, factors, expires_at",
    to: "f.value = ${sql.lit('verified')})`)}\n    select id, factors, expires_at",
  },
  {
    name: 'rotation: pending means a verified factor',
    file: repository,
    from: "f.value = ${sql.lit('unverified')})\n    returning id, user_id, factors",
    to: "f.value = ${sql.lit('verified')})\n    returning id, user_id, factors",
  },
  {
    name: 'session lifetime 364 days',
    file: lifetimes,
    from: 'sessionLifetimeMs = 365 * 86_400_000',
    to: 'sessionLifetimeMs = 364 * 86_400_000',
  },
];

const wanted = process.argv.slice(2);
const chosen = wanted.length ? flips.filter((f) => wanted.includes(f.name)) : flips;
if (wanted.length && chosen.length !== wanted.length) {
  console.error(`unknown flip; the flips are:\n${flips.map((f) => `  ${f.name}`).join('\n')}`);
  process.exit(2);
}

// Every flip must apply to today's text: a rule moved or rewritten needs its flips moved with it.
for (const flip of flips) {
  const occurrences = readFileSync(join(root, flip.file), 'utf8').split(flip.from).length - 1;
  if (occurrences !== 1) {
    console.error(`flip "${flip.name}": ${flip.file} holds its text ${occurrences} times (expected once)`);
    process.exit(2);
  }
}

const env = { ...process.env };
for (const name of ['CORE_TEST_PGLITE_SNAPSHOT', 'CORE_TEST_POSTGRES_TEMPLATE', 'TEST_DATABASE_URL']) delete env[name];

// Stopped mid-flip (Ctrl-C, a timeout), the flipped file is restored and the test run ended before the script
// exits: the tests run in a child the event loop waits for, so the signal is handled at once, not after the run.
let restore = null;
let running = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    restore?.();
    running?.kill('SIGKILL');
    process.exit(130);
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'sql-flips-'));
const results = [];
try {
  for (const flip of chosen) {
    const path = join(root, flip.file);
    const original = readFileSync(path, 'utf8');
    restore = () => writeFileSync(path, original);
    writeFileSync(path, original.replace(flip.from, flip.to));
    const report = join(scratch, 'report.json');
    const started = Date.now();
    try {
      running = spawn(
        process.execPath,
        [
          '--experimental-vm-modules',
          '--disable-warning=ExperimentalWarning',
          'node_modules/jest/bin/jest.js',
          ...tests,
          '--maxWorkers=2',
          '--silent',
          '--json',
          `--outputFile=${report}`,
        ],
        { cwd: root, env, stdio: ['ignore', 'ignore', 'ignore'] },
      );
      await once(running, 'exit');
    } finally {
      running = null;
      restore();
      restore = null;
    }
    let failed = 0;
    let passed = 0;
    try {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      failed = json.numFailedTests + json.numRuntimeErrorTestSuites;
      passed = json.numPassedTests;
    } catch {
      failed = Number.NaN;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const ok = failed >= minimumFailures;
    results.push({ ...flip, failed, ok });
    console.log(
      `${ok ? 'killed  ' : 'SURVIVED'}  ${String(failed).padStart(3)} failed, ${passed} passed  (${seconds} s)  ${flip.name}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const survivors = results.filter((r) => !r.ok);
console.log(
  survivors.length
    ? `\n${survivors.length} of ${results.length} flips failed fewer than ${minimumFailures} tests`
    : `\nevery flip (${results.length}) failed at least ${minimumFailures} tests`,
);
process.exit(survivors.length ? 1 : 0);
