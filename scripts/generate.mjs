#!/usr/bin/env node
// Derives everything in generated/ from openapi/: the bundled spec (what the server's validator loads), the
// TypeScript types (server handlers, web client) and a self-contained Redoc page; then server/src/db/types.ts, the
// row types, from the migrations (scripts/db-types.ts). With --check it regenerates into a temporary folder (the
// row types in memory) and fails when either differs: the drift guard run by `npm test` and CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, copyFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'generated');
const check = process.argv.includes('--check');
const out = mkdtempSync(join(tmpdir(), 'core-api-generated-'));
const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(args) {
  execFileSync(process.execPath, [redocly, ...args], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** server/src/db/types.ts from the migrations; with --check, false when it is out of step (the script says so). */
function dbTypes() {
  const args = ['--import', 'tsx', join(root, 'scripts', 'db-types.ts'), ...(check ? ['--check'] : [])];
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status === 0;
}

let failed = false;

try {
  const bundle = join(out, 'core-api.bundle.json');
  run(['bundle', 'openapi/openapi.yaml', '--output', bundle, '--ext', 'json']);
  // Stable formatting, whatever the bundler's.
  writeFileSync(bundle, JSON.stringify(JSON.parse(readFileSync(bundle, 'utf8')), null, 2) + '\n');

  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(pathToFileURL(bundle), { alphabetize: false, exportType: false });
  const header = '// Generated from openapi/ by `npm run generate`. Do not edit by hand.\n';
  writeFileSync(join(out, 'core-api.d.ts'), header + astToString(ast));

  run(['build-docs', bundle, '--output', join(out, 'docs.html'), '--inlineBundle', '--title', 'Core API']);

  const files = readdirSync(out).sort();
  if (check) {
    const stale = files.filter(
      (f) => !existsSync(join(target, f)) || !readFileSync(join(target, f)).equals(readFileSync(join(out, f))),
    );
    const extra = existsSync(target)
      ? readdirSync(target).filter((f) => !files.includes(f) && f !== '.gitattributes')
      : [];
    if (stale.length || extra.length) {
      console.error(
        `generated/ is out of step with openapi/: ${[...stale, ...extra].join(', ')}. Run \`npm run generate\` and commit.`,
      );
      failed = true;
    } else {
      console.log('generated/ is up to date with openapi/');
    }
  } else {
    for (const f of files) copyFileSync(join(out, f), join(target, f));
    console.log(`generated/: ${files.join(', ')}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (!dbTypes()) failed = true;
if (failed) process.exit(1);
