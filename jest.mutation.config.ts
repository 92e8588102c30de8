/** @jest-config-loader esbuild-register */
// The Jest configuration of mutation testing (stryker.config.mjs): the server project alone, with the test files of
// the area under mutation (MUTATION_TESTS, set by stryker.config.mjs), on the embedded database, one file at a time.
import { join } from 'node:path';
import type { Config } from 'jest';
import { server } from './jest.config';

const tests = JSON.parse(process.env.MUTATION_TESTS ?? '[]') as string[];
if (tests.length === 0) throw new Error('MUTATION_TESTS names no test files (run it through npm run test:mutation)');

// The project's `<rootDir>` placeholder means this file's folder at the top level.
const { rootDir: _projectRoot, ...project } = server;

const config: Config = {
  ...project,
  testMatch: tests.map((glob) => `<rootDir>/${glob}`),
  testTimeout: 30_000,
  maxWorkers: 1,
  // A mutant's run loads only the files that hold a test it selects (the others would run nothing).
  testSequencer: '<rootDir>/test-support/mutation-sequencer.cjs',
  // A mutant's run ends at its first failing test (the rest would not change its result). A path, not `<rootDir>`:
  // Stryker's first run loads the environment itself, from the option as written.
  testEnvironment: join(__dirname, 'test-support', 'mutation-environment.cjs'),
};

export default config;
