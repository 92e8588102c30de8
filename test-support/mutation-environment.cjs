// Jest's test environment for mutation testing (jest.mutation.config.ts `testEnvironment`): Node's, plus one rule for
// a mutant's run. A mutant is killed by its first failing test; Stryker reads no more than that, yet Jest goes on to
// run every other test that reaches the mutant, in this file and in the files after it (Stryker turns Jest's own
// `bail` off, and that works between files only). So once a test fails while a mutant is active, the tests of that run
// that have not started are skipped, and a later file of the run starts none of its set-up (its hooks run only for
// tests that are not skipped). The after-all hooks of the file that failed still run and close what it opened.
// Outside a mutant's run (a plain `jest` run, or Stryker's first run, which maps tests to mutants and in which every
// test must pass) nothing changes. A survivor's run is unchanged: nothing failed, so nothing is skipped.
const { TestEnvironment } = require('jest-environment-node');

// Stryker names the active mutant in this variable for the length of its run (@stryker-mutator/api, INSTRUMENTER_CONSTANTS).
const activeMutantVariable = '__STRYKER_ACTIVE_MUTANT__';
// The mutant whose run has had a failing test. One Jest process runs a mutant's files one after the other and then the
// next mutant's, and this module stays loaded between them: keyed by the mutant, the rule ends with the run.
let failedMutant;

/** Marks every test of `block` (and of the blocks inside it) that has not started as skipped. */
function skipPending(block) {
  for (const child of block.children) {
    if (child.type === 'describeBlock') skipPending(child);
    else if (child.status == null) child.mode = 'skip';
  }
}

class MutationEnvironment extends TestEnvironment {
  handleTestEvent(event, state) {
    const active = process.env[activeMutantVariable];
    if (active === undefined) return;
    const failed =
      (event.name === 'test_done' && event.test.errors.length > 0) ||
      (event.name === 'hook_failure' && event.hook.type === 'beforeAll');
    if (failed) failedMutant = active;
    if (failedMutant !== active) return;
    // A file that starts after the failure: nothing of it runs. The file of the failure: nothing more of it runs.
    if (event.name === 'run_start' || failed) skipPending(state.rootDescribeBlock);
    else if (event.name === 'test_start') event.test.mode = 'skip';
  }
}

module.exports = MutationEnvironment;
