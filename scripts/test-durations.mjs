#!/usr/bin/env node
// npm run test:durations -- <jest-results.json>: rewrites test-support/durations.json, the durations the test
// sequencer (test-support/sequencer.cjs) orders a fresh clone's files by, from the JSON report of a full run
// (`JEST_RESULTS=<file> npm test`). A file that runs in two projects keeps the longer of its two durations.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: npm run test:durations -- <jest-results.json>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(resolve(report), 'utf8'));
// The report names files by absolute path, in whichever clone ran it: each is keyed by the longest tail of its
// path that names a file of this checkout (a report of part of the run works as well as one of all of it).
const inThisCheckout = (name) => {
  const parts = name.split('\\').join('/').split('/');
  for (let from = 1; from < parts.length; from++) {
    const tail = parts.slice(from).join('/');
    if (existsSync(join(root, tail))) return tail;
  }
  return null;
};
const files = {};
for (const { name, startTime, endTime } of testResults) {
  const file = inThisCheckout(name);
  if (!file) continue;
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
