/**
 * The production build runs react-dom's own production build (issue 27: the stack the product names, no
 * look-alike runtime), its initial JavaScript (the entry chunk and its static imports, gzip -9) stays at most
 * 125 KB, and the build ships no source maps. Builds the app with web/scripts/check-size.mjs,
 * which CI runs here through `npm test`.
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
  sourceMaps: string[];
  runtime: { renderer: string | null; version: string | null; production: boolean };
}

test("the login page runs react-dom's production build, needs at most 125 KB of gzipped JavaScript before it can appear, and the build holds no source maps", () => {
  const result = spawnSync(process.execPath, [join(ROOT, 'web', 'scripts', 'check-size.mjs'), '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  const report = JSON.parse(line) as SizeReport;
  expect(report.limitBytes).toBe(125_000);
  expect(report.runtime).toEqual({ renderer: 'react-dom', version: expect.stringMatching(/^19\./), production: true });
  expect({ initialBytes: report.initialBytes, files: Object.keys(report.initial) }).toEqual({
    initialBytes: expect.any(Number),
    files: expect.arrayContaining([expect.stringMatching(/^assets\/index-.*\.js$/)]),
  });
  expect(report.initialBytes).toBeLessThanOrEqual(125_000);
  expect(report.sourceMaps).toEqual([]);
  // The pages and steps the login screen does not need, and yup, are loaded on demand.
  for (const lazy of ['two-factor-page', 'forgot-password-page', 'new-password-page', 'region-step', 'sso-step']) {
    expect(Object.keys(report.lazy).some((file) => file.includes(lazy))).toBe(true);
  }
  // Translations are JSON beside the app, never in the JavaScript.
  expect(
    Object.keys({ ...report.initial, ...report.lazy }).filter((file) => /\/(sv|en|nl|fi|es|pt)-[\w-]+\.js$/.test(file)),
  ).toEqual([]);
  expect(result.status).toBe(0);
});
