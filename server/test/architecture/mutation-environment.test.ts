// The test environment of mutation testing (test-support/mutation-environment.cjs): once a test fails while a mutant is
// active, the rest of that mutant's run is skipped, set-up included; nothing else changes. Jest runs two small files
// here, one process for both, as Stryker runs a mutant's files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const environment = join(root, 'test-support', 'mutation-environment.cjs');
const jestBin = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const activeMutant = '__STRYKER_ACTIVE_MUTANT__';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mutation-environment-'));
  const logged = `const log = (what) => require('node:fs').appendFileSync(process.env.RUN_LOG, what + '\\n');`;
  writeFileSync(
    join(dir, 'a.test.js'),
    `${logged}
beforeAll(() => log('a: set-up'));
afterAll(() => log('a: tear-down'));
test('a1', () => log('a1'));
test('a2', () => { log('a2'); expect(process.env.A2_FAILS).toBeUndefined(); });
test('a3', () => log('a3'));
describe('later', () => {
  beforeAll(() => log('a: later set-up'));
  test('a4', () => log('a4'));
});
`,
  );
  writeFileSync(
    join(dir, 'b.test.js'),
    `${logged}
beforeAll(() => log('b: set-up'));
test('b1', () => log('b1'));
`,
  );
  // a.test.js first, as a mutant's files run one after the other in the sequencer's order.
  writeFileSync(
    join(dir, 'sequencer.cjs'),
    `const Sequencer = require(${JSON.stringify(require.resolve('@jest/test-sequencer'))}).default;
module.exports = class extends Sequencer { sort(tests) { return [...tests].sort((x, y) => x.path.localeCompare(y.path)); } };
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs both files in one Jest process; answers what they logged and each test's status. */
function run(env: Record<string, string>) {
  const log = join(dir, `run-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const report = join(dir, 'report.json');
  const config = {
    rootDir: dir,
    testEnvironment: environment,
    testSequencer: join(dir, 'sequencer.cjs'),
    transform: {},
  };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, RUN_LOG: log };
  if (!(activeMutant in env)) delete childEnv[activeMutant];
  if (!('A2_FAILS' in env)) delete childEnv.A2_FAILS;
  spawnSync(
    process.execPath,
    [jestBin, '--config', JSON.stringify(config), '--runInBand', '--ci', '--json', `--outputFile=${report}`],
    { cwd: dir, env: childEnv, stdio: 'ignore' },
  );
  const results = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { assertionResults: { title: string; status: string }[] }[];
  };
  const statuses = Object.fromEntries(
    results.testResults.flatMap((file) => file.assertionResults.map((test) => [test.title, test.status])),
  );
  return { logged: readFileSync(log, 'utf8').trim().split('\n'), statuses };
}

describe('a mutant run in the mutation test environment', () => {
  it('stops at the first failing test: the rest of its file and the later files are skipped, set-up included', () => {
    const { logged, statuses } = run({ [activeMutant]: '7', A2_FAILS: '1' });
    expect(logged).toEqual(['a: set-up', 'a1', 'a2', 'a: tear-down']);
    expect(statuses).toEqual({ a1: 'passed', a2: 'failed', a3: 'pending', a4: 'pending', b1: 'pending' });
  });

  it('runs every test when none fails (a survivor is tried by all the tests that reach it)', () => {
    const { logged, statuses } = run({ [activeMutant]: '7' });
    expect(logged).toEqual(['a: set-up', 'a1', 'a2', 'a3', 'a: later set-up', 'a4', 'a: tear-down', 'b: set-up', 'b1']);
    expect(Object.values(statuses)).toEqual(Array(5).fill('passed'));
  });

  it('changes nothing outside a mutant run: a failure is followed by every other test', () => {
    const { logged, statuses } = run({ A2_FAILS: '1' });
    expect(logged).toEqual(['a: set-up', 'a1', 'a2', 'a3', 'a: later set-up', 'a4', 'a: tear-down', 'b: set-up', 'b1']);
    expect(statuses).toEqual({ a1: 'passed', a2: 'failed', a3: 'passed', a4: 'passed', b1: 'passed' });
  });

  it("ends with the mutant's run: the next mutant's files run whole in the same process", () => {
    const Environment = createRequire(__filename)(environment) as {
      prototype: { handleTestEvent(event: object, state: object): void };
    };
    const handle = (event: object, state: object = {}) => Environment.prototype.handleTestEvent.call({}, event, state);
    const test = () => ({ type: 'test', mode: undefined as string | undefined, status: null, errors: [] as unknown[] });
    const saved = process.env[activeMutant];
    try {
      process.env[activeMutant] = '1';
      handle(
        { name: 'test_done', test: { ...test(), errors: [new Error('killed')] } },
        { rootDescribeBlock: { children: [] } },
      );
      const skippedForOne = test();
      handle({ name: 'test_start', test: skippedForOne });
      expect(skippedForOne.mode).toBe('skip');
      process.env[activeMutant] = '2';
      const next = test();
      handle({ name: 'run_start' }, { rootDescribeBlock: { children: [next] } });
      handle({ name: 'test_start', test: next });
      expect(next.mode).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env[activeMutant];
      else process.env[activeMutant] = saved;
    }
  });
});
