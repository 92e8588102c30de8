/**
 * Issue 5 item 11: the production build's initial JavaScript (the entry chunk and its static imports, gzip -9)
 * stays at most 120 KB. Builds the app with web/scripts/check-size.mjs, which CI runs here through `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './support/stack';

interface SizeReport {
  initialBytes: number;
  limitBytes: number;
  ok: boolean;
  initial: Record<string, number>;
  lazy: Record<string, number>;
}

test('the login page needs at most 120 KB of gzipped JavaScript before it can appear', () => {
  const result = spawnSync(process.execPath, [join(ROOT, 'web', 'scripts', 'check-size.mjs'), '--json'], { cwd: ROOT, encoding: 'utf8' });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  const report = JSON.parse(line) as SizeReport;
  expect(report.limitBytes).toBe(120_000);
  expect({ initialBytes: report.initialBytes, files: Object.keys(report.initial) }).toEqual({
    initialBytes: expect.any(Number),
    files: expect.arrayContaining([expect.stringMatching(/^assets\/index-.*\.js$/)]),
  });
  expect(report.initialBytes).toBeLessThanOrEqual(120_000);
  // The pages the login screen does not need, yup, and each locale are loaded on demand.
  for (const lazy of ['two-factor-page', 'forgot-password-page', 'new-password-page', 'sv-', 'en-']) {
    expect(Object.keys(report.lazy).some((file) => file.includes(lazy))).toBe(true);
  }
  expect(result.status).toBe(0);
});
