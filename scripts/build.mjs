#!/usr/bin/env node
// `npm run build`: the server compiled to JavaScript (server/dist/, run by `node server/dist/main.js` without
// TypeScript tooling) and the sign-in web app as static files (web/dist/). It first checks that generated/ is in
// step with openapi/, because the server ships the committed contract bundle and docs page from generated/.
//
// `npm run build -- --release <dir>` builds into <dir> instead and puts beside it everything a region needs at
// run time, and nothing else: the package manifests and lock file (for `npm ci --omit=dev`), server/dist,
// server/assets, the contract bundle and docs page, and web/dist. The container image and the production-install
// test are made from such a directory.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const releaseAt = args.indexOf('--release');
const release = releaseAt >= 0 ? resolve(args[releaseAt + 1] ?? '') : null;
if (releaseAt >= 0 && !args[releaseAt + 1]) fail('--release needs a directory');

/** What `node server/dist/main.js` reads besides node_modules (paths relative to the repository). */
const runtimeFiles = [
  'package.json',
  'package-lock.json',
  'server/package.json',
  'web/package.json',
  'server/assets',
  // Applied by the production install's postinstall (patch-package), as in development.
  'patches',
  'generated/core-api.bundle.json',
  'generated/docs.html',
];

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

function run(label, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`${label} failed`);
  console.log(`build: ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const out = release ?? root;
const serverDist = join(out, 'server', 'dist');
const webDist = join(out, 'web', 'dist');
if (release) {
  rmSync(release, { recursive: true, force: true });
  mkdirSync(release, { recursive: true });
}
rmSync(serverDist, { recursive: true, force: true });

run('generated/ and the row types are in step with openapi/ and the migrations', [
  join(root, 'scripts', 'generate.mjs'),
  '--check',
]);
run('server → server/dist', [
  join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
  '-p',
  join(root, 'server', 'tsconfig.build.json'),
  '--outDir',
  serverDist,
]);
run(
  'web → web/dist',
  [
    join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--outDir',
    webDist,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ],
  {
    cwd: join(root, 'web'),
    // A production bundle whatever the caller's NODE_ENV (Jest sets `test`, which would bundle React's development build).
    env: { ...process.env, NODE_ENV: 'production' },
  },
);
if (release) {
  for (const path of runtimeFiles) cpSync(join(root, path), join(release, path), { recursive: true });
  console.log(
    `build: release in ${release}; run it with \`npm ci --omit=dev && NODE_ENV=production node server/dist/main.js\``,
  );
}
