// Jest's order of test files (jest.config.ts `testSequencer`): the longest first, so that neither worker is left
// running one long file alone at the end of `npm test`. Jest's own sequencer does this from the durations it keeps
// in its cache, which a fresh clone (every CI run) does not have: it then orders by file size, and a short file of
// many lines runs before a long browser suite of few. This one answers from the committed durations of
// test-support/durations.json when the cache has none (docs/testing.md; `npm run test:durations` rewrites them from
// a run's JSON report). A file the table does not know runs before the known ones, as in Jest's own order.
const { relative, resolve } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { files } = require('./durations.json');

const root = resolve(__dirname, '..');

class LongestFirst extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = files[relative(root, test.path).split('\\').join('/')];
    return seconds == null ? undefined : seconds * 1000;
  }
}

module.exports = LongestFirst;
