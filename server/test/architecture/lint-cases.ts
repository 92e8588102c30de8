// Runs lint-as.mjs once over many cases: each fixture (a path under fixtures/) linted as if it lived at `asFile`
// (relative to the repository). Starting ESLint and its TypeScript resolver costs seconds, so the architecture
// suites lint all their cases in one run rather than one process per case.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

const root = join(__dirname, '..', '..', '..');

/** Each case's messages, in the order of `cases`. */
export function lintCases(cases: { fixture: string; asFile: string }[]): LintMessage[][] {
  const run = spawnSync(process.execPath, [join(__dirname, 'lint-as.mjs')], {
    cwd: root,
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`lint-as.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as LintMessage[][];
}
