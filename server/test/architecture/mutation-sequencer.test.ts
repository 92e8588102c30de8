// The test files a mutant's run loads (test-support/mutation-sequencer.cjs): a file is left out only when it holds
// no test the run's pattern selects, so a mutant is tried by the same tests as without it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface FakeTest {
  path: string;
  context: { config: { rootDir: string }; hasteFS: { getSize(path: string): number } };
}
type Sequencer = { sort(tests: FakeTest[]): FakeTest[] | Promise<FakeTest[]> };
const load = createRequire(__filename);
const OnlyFilesWithSelectedTests = load('../../../test-support/mutation-sequencer.cjs') as {
  new (options: { contexts: unknown[]; globalConfig: { testNamePattern?: string } }): Sequencer;
  filesToRun(files: string[], namesByFile: Record<string, string[]>, pattern: string | undefined): string[];
};
const { filesToRun } = OnlyFilesWithSelectedTests;

// As Stryker's jest runner builds the pattern of a mutant's tests: each full name escaped, in a group, joined by |.
const patternOf = (...names: string[]) =>
  names.map((name) => `(${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`).join('|');

const namesByFile = {
  'server/test/sso/oidc-sign-in.test.ts': [
    'GET /core/v1/probes/idpDomain/{idpDomain} answers the protocol of a domain',
    'OIDC sign-in refuses a state it did not issue',
  ],
  'server/test/prove/security.test.ts': ['crafted redirect targets there are at least 50, all different'],
  'server/test/sso/saml-sign-in.test.ts': ['SAML sign-in refuses an unsigned assertion (a forgery)'],
};
const files = Object.keys(namesByFile);

describe('the test files of a mutant run', () => {
  it('are every file when no pattern is given: the first run, which maps tests to mutants, and static mutants', () => {
    expect(filesToRun(files, namesByFile, undefined)).toEqual(files);
    expect(filesToRun(files, namesByFile, '')).toEqual(files);
  });

  it('are the files holding a selected test, names with regular-expression characters included', () => {
    expect(filesToRun(files, namesByFile, patternOf('SAML sign-in refuses an unsigned assertion (a forgery)'))).toEqual(
      ['server/test/sso/saml-sign-in.test.ts'],
    );
    expect(
      filesToRun(
        files,
        namesByFile,
        patternOf(
          'GET /core/v1/probes/idpDomain/{idpDomain} answers the protocol of a domain',
          'crafted redirect targets there are at least 50, all different',
        ),
      ),
    ).toEqual(['server/test/sso/oidc-sign-in.test.ts', 'server/test/prove/security.test.ts']);
  });

  it('match names as Jest does: anywhere in the full name, whatever the case', () => {
    expect(filesToRun(files, namesByFile, 'REFUSES A STATE')).toEqual(['server/test/sso/oidc-sign-in.test.ts']);
  });

  it('keep a file the list does not know (written after the list), as it may hold a selected test', () => {
    const added = 'server/test/sso/new.test.ts';
    expect(
      filesToRun([...files, added], namesByFile, patternOf('OIDC sign-in refuses a state it did not issue')),
    ).toEqual(['server/test/sso/oidc-sign-in.test.ts', added]);
  });

  it('are every file when the pattern selects no test the list knows, so Jest, not the filter, says what it finds', () => {
    expect(filesToRun(files, namesByFile, patternOf('a test renamed since the list'))).toEqual(files);
  });

  describe('as Jest sorts them', () => {
    const root = join('/', 'project', '.stryker-tmp', 'sandbox-1');
    // What Jest's own order reads of a test file: its project's root and its size.
    const context = { config: { rootDir: root }, hasteFS: { getSize: () => 1 } };
    const tests: FakeTest[] = files.map((file) => ({ path: join(root, file), context }));
    const saved = process.env.MUTATION_TEST_NAMES;
    let list: string;
    beforeAll(async () => {
      const { mkdtemp, writeFile } = await import('node:fs/promises');
      const { tmpdir } = await import('node:os');
      list = join(await mkdtemp(join(tmpdir(), 'mutation-sequencer-')), 'names.json');
      await writeFile(list, JSON.stringify(namesByFile));
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.MUTATION_TEST_NAMES;
      else process.env.MUTATION_TEST_NAMES = saved;
    });

    it('leave out, inside Stryker’s sandbox, the files with no selected test, reading the list the run names', async () => {
      process.env.MUTATION_TEST_NAMES = list;
      const sequencer = new OnlyFilesWithSelectedTests({
        contexts: [],
        globalConfig: { testNamePattern: patternOf('crafted redirect targets there are at least 50, all different') },
      });
      expect((await sequencer.sort(tests)).map((test) => test.path)).toEqual([
        join(root, 'server/test/prove/security.test.ts'),
      ]);
    });

    it('are all of them when the run names no list', async () => {
      delete process.env.MUTATION_TEST_NAMES;
      const sequencer = new OnlyFilesWithSelectedTests({
        contexts: [],
        globalConfig: { testNamePattern: patternOf('crafted redirect targets there are at least 50, all different') },
      });
      expect((await sequencer.sort(tests)).map((test) => test.path).sort()).toEqual(tests.map((t) => t.path).sort());
    });
  });
});
