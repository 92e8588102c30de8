// scripts/mutation-recheck.mjs (npm run test:mutation:recheck) on a small project made here: a report with a mutant
// a test notices, one no test notices and one made from a source that has changed since, in the report's own shape.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(__dirname, '..', '..', '..', 'scripts', 'mutation-recheck.mjs');
let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'mutation-recheck-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const numbers = ['exports.add = (a, b) => a + b;', 'exports.sign = (n) => (n > 0 ? 1 : 0);', ''].join('\n');
const tested = 'exports.double = (n) => n * 2;\n';
const at = (line: number, from: number, to: number) => ({
  start: { line, column: from },
  end: { line, column: to },
});

function write(sources: { numbers: string; tested: string }, secondFile = false) {
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(project, 'test'), { recursive: true });
  mkdirSync(join(project, 'reports', 'mutation'), { recursive: true });
  writeFileSync(join(project, 'jest.config.js'), 'module.exports = {};\n');
  writeFileSync(join(project, 'src', 'numbers.js'), sources.numbers);
  writeFileSync(join(project, 'src', 'tested.js'), sources.tested);
  writeFileSync(
    join(project, 'test', 'numbers.test.js'),
    [
      "const { add, sign } = require('../src/numbers');",
      "const { double } = require('../src/tested');",
      "test('adds', () => expect(add(2, 3)).toBe(5));",
      // sign(0) is never asked: `n > 0` made `n >= 0` goes unnoticed.
      "test('signs', () => expect(sign(4)).toBe(1));",
      "test('doubles', () => expect(double(2)).toBe(4));",
      '',
    ].join('\n'),
  );
  // A second file whose test also notices the first mutant, when asked for.
  if (secondFile)
    writeFileSync(
      join(project, 'test', 'more.test.js'),
      "const { add } = require('../src/numbers');\ntest('adds again', () => expect(add(1, 1)).toBe(2));\n",
    );
  else rmSync(join(project, 'test', 'more.test.js'), { force: true });
  const covering = ['adds', 'signs', 'doubles', ...(secondFile ? ['adds again'] : [])];
  const mutant = (id: string, location: ReturnType<typeof at>, replacement: string, mutatorName: string) => ({
    id,
    location,
    replacement,
    mutatorName,
    status: 'Survived',
    coveredBy: covering,
  });
  writeFileSync(
    join(project, 'reports', 'mutation', 'tiny.incremental.json'),
    JSON.stringify({
      files: {
        'src/numbers.js': {
          language: 'javascript',
          source: numbers,
          mutants: [
            mutant('1', at(1, 25, 30), 'a - b', 'ArithmeticOperator'),
            mutant('2', at(2, 24, 29), 'n >= 0', 'EqualityOperator'),
            { ...mutant('3', at(1, 25, 30), 'a * b', 'ArithmeticOperator'), status: 'Killed' },
            // Reached by no single test (a static mutant): every test file of the report runs.
            { ...mutant('5', at(1, 25, 30), 'b + a', 'ArithmeticOperator'), coveredBy: [] },
          ],
        },
        // The report was made from `n + n`; the file says `n * 2` now. `n * 2` for `n + n` is a survivor no test can kill.
        'src/tested.js': {
          language: 'javascript',
          source: 'exports.double = (n) => n + n;\n',
          mutants: [mutant('4', at(1, 25, 30), 'n * 2', 'ArithmeticOperator')],
        },
      },
      testFiles: {
        'test/numbers.test.js': { tests: ['adds', 'signs', 'doubles'].map((id) => ({ id, name: id })) },
        ...(secondFile ? { 'test/more.test.js': { tests: [{ id: 'adds again', name: 'adds again' }] } } : {}),
      },
    }),
  );
}

const recheck = (...args: string[]) =>
  spawnSync(process.execPath, [script, '--root', project, 'tiny', ...args], { encoding: 'utf8' });

describe('npm run test:mutation:recheck', () => {
  test("tries each survivor again with its files' tests: says which a test fails on, skips a changed file, restores the source", () => {
    write({ numbers, tested });
    const run = recheck();
    const lines = run.stdout.trim().split('\n');
    expect(lines).toEqual([
      'killed   src/numbers.js:1:25 ArithmeticOperator → "a - b": adds',
      'survives src/numbers.js:2:24 EqualityOperator → "n >= 0"',
      'survives src/numbers.js:1:25 ArithmeticOperator → "b + a"',
      'skipped  src/tested.js:1:25 ArithmeticOperator → "n * 2" (the file changed since the run)',
      '3 tried again: 2 survive, 1 killed outside the run; 1 skipped',
    ]);
    expect(run.status).toBe(1);
    expect(readFileSync(join(project, 'src', 'numbers.js'), 'utf8')).toBe(numbers);
  });

  test('when every survivor survives again it passes; --status picks other results', () => {
    write({ numbers: numbers.replace('a + b', 'a + b + 0'), tested: 'exports.double = (n) => n + n;\n' });
    const survivors = recheck();
    expect(survivors.stdout).toContain('skipped  src/numbers.js:1:25');
    expect(survivors.stdout).toContain('survives src/tested.js:1:25 ArithmeticOperator → "n * 2"');
    expect(survivors.status).toBe(0);
    write({ numbers, tested });
    const killed = recheck('--status', 'Killed');
    expect(killed.stdout.trim().split('\n')).toEqual([
      'killed   src/numbers.js:1:25 ArithmeticOperator → "a * b": adds',
      '1 tried again: 0 survive, 1 killed outside the run; 0 skipped',
    ]);
  });

  test('--bail stops at the first test file that fails', () => {
    write({ numbers, tested }, true);
    const killedLine = (run: ReturnType<typeof recheck>) =>
      run.stdout
        .split('\n')
        .find((line) => line.startsWith('killed   src/numbers.js:1:25 ArithmeticOperator → "a - b"'));
    // Without it both files run, and the line names a failing test of each.
    expect(killedLine(recheck())?.split(': ')[1]?.split('; ').sort()).toEqual(['adds', 'adds again']);
    // With it Jest stops at the first failing file, before it writes which tests failed.
    expect(killedLine(recheck('--bail'))?.split(': ')[1]).toBe('a test file failed (--bail)');
  });

  test('stopped while a mutant is in the source (Ctrl-C), it puts the source back', async () => {
    write({ numbers, tested });
    const child = spawn(process.execPath, [script, '--root', project, 'tiny'], { stdio: 'ignore' });
    const path = join(project, 'src', 'numbers.js');
    const deadline = Date.now() + 20_000;
    while (readFileSync(path, 'utf8') === numbers && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(readFileSync(path, 'utf8')).not.toBe(numbers);
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readFileSync(path, 'utf8')).toBe(numbers);
  });

  test('an area without a report is refused', () => {
    const run = spawnSync(process.execPath, [script, '--root', project, 'nowhere'], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('nowhere has none');
  });
});
