// Mutation testing (StrykerJS): how strong the tests of the most attacked code are, measured by changing that code
// (a `>` becomes `>=`, a condition `true`, a string empty) and counting the changes no test notices. One area at a
// time (MUTATION_AREA, set by scripts/mutation.mjs): each area names the code it mutates and the test files that
// exercise it, so a mutant runs only those files, and only the tests among them that reach its line
// (coverageAnalysis perTest). Incremental: a mutant whose code and tests did not change since the last run keeps its
// result (reports/mutation/<area>.incremental.json, committed). docs/testing.md has the scores.

import { areas } from './scripts/mutation-areas.mjs';

const name = process.env.MUTATION_AREA ?? '';
const area = areas[name];
if (!area) throw new Error(`MUTATION_AREA must be one of: ${Object.keys(areas).join(', ')}`);
// Read by jest.mutation.config.ts in Stryker's test-runner processes, which inherit this environment.
process.env.MUTATION_TESTS = JSON.stringify(area.tests);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.ts', enableFindRelatedTests: false },
  // As npm run test:unit: the embedded database loads its extensions with a dynamic import.
  testRunnerNodeArgs: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
  checkers: ['typescript'],
  tsconfigFile: 'server/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // An area may leave out static mutants (scripts/mutation-areas.mjs says which and why); they show as Ignored.
  ignoreStatic: area.ignoreStatic ?? false,
  mutate: area.mutate,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // One test process: the machine this runs on has two cores and each test file starts its own database.
  concurrency: 1,
  timeoutMS: 30_000,
  // The first run of all of an area's tests, which maps each test to the code it reaches: the sessions area runs
  // some forty database-backed files, over Stryker's default of 5 minutes on a busy 2-core machine.
  dryRunTimeoutMinutes: 30,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Builds and reports are not sources: the sandbox copies the rest.
  ignorePatterns: ['/web/dist', '/server/dist', '/reports', '/.stryker-tmp*'],
};
