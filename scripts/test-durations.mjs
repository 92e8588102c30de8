#!/usr/bin/env node
// npm run test:durations -- <jest-results.json>: rewrites test-support/durations.json, the durations the test
// sequencer (test-support/sequencer.cjs) orders a fresh clone's files by, from the JSON report of a full run
// (`JEST_RESULTS=<file> npm test`). A file that runs in two projects keeps the longer of its two durations.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: npm run test:durations -- <jest-results.json>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(resolve(report), 'utf8'));
// The report names files by absolute path, in whichever clone ran it: their common folder is that clone's root.
const names = testResults.map(({ name }) => name.split('\\').join('/'));
let runRoot = names[0].slice(0, names[0].lastIndexOf('/'));
for (const name of names) while (!name.startsWith(`${runRoot}/`)) runRoot = runRoot.slice(0, runRoot.lastIndexOf('/'));
const files = {};
for (const [index, { startTime, endTime }] of testResults.entries()) {
  const file = names[index].slice(runRoot.length + 1);
  const seconds = Math.round((endTime - startTime) / 100) / 10;
  files[file] = Math.max(files[file] ?? 0, seconds);
}
const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
const target = join(root, 'test-support', 'durations.json');
writeFileSync(
  target,
  `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), files: sorted }, null, 2)}\n`,
);
console.log(`${Object.keys(sorted).length} files' durations written to ${relative(root, target)}`);
