// Jest's test files for one mutant (jest.mutation.config.ts `testSequencer`): only the files that hold a test the run
// selects. Stryker runs a mutant with every test file of its area and a test-name pattern of the tests that reach the
// mutant (coverageAnalysis perTest); Jest then still loads every file, and its imports, only to skip all of its tests
// (about a second a file: twenty seconds a mutant in the sessions area). scripts/mutation.mjs lists the area's tests
// by file before Stryker starts (MUTATION_TEST_NAMES names that list); a file is left out only when the list knows it
// and none of its tests matches the pattern, which is exactly when Jest would have run nothing in it. Without a
// pattern (the first run, which maps tests to mutants, and a static mutant's run) or without a list, every file runs.
const { readFileSync } = require('node:fs');
const { relative } = require('node:path');
const LongestFirst = require('./sequencer.cjs');

/**
 * The files among `files` (paths relative to the project) that Jest would run a test of: a file the list does not
 * know is kept; when the pattern selects no known file, all are kept, and Jest says what it finds.
 * @param {string[]} files
 * @param {Record<string, string[]>} namesByFile full test names (describe titles and test title) by file
 * @param {string | undefined} pattern Jest's testNamePattern: matched case-insensitively against full names
 */
function filesToRun(files, namesByFile, pattern) {
  if (!pattern) return files;
  const selects = new RegExp(pattern, 'i');
  const kept = files.filter((file) => {
    const names = namesByFile[file];
    return names === undefined || names.some((name) => selects.test(name));
  });
  return kept.length > 0 ? kept : files;
}

class OnlyFilesWithSelectedTests extends LongestFirst {
  constructor(options) {
    super(options);
    this.pattern = options.globalConfig.testNamePattern;
  }

  sort(tests) {
    const list = process.env.MUTATION_TEST_NAMES;
    const namesByFile = list ? JSON.parse(readFileSync(list, 'utf8')) : {};
    const projectPath = (test) => relative(test.context.config.rootDir, test.path).split('\\').join('/');
    const kept = new Set(filesToRun(tests.map(projectPath), namesByFile, this.pattern));
    return super.sort(tests.filter((test) => kept.has(projectPath(test))));
  }
}

module.exports = OnlyFilesWithSelectedTests;
module.exports.filesToRun = filesToRun;
