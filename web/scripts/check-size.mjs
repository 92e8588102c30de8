#!/usr/bin/env node
// The JavaScript the login page needs before it can appear, the entry chunk and every chunk it imports statically
// (what index.html loads and preloads), must stay at most 125 KB gzipped at level 9: what the chosen stack needs,
// plus headroom. The floor of each library, measured alone with only what the app imports of it
// (scripts/library-floors.mjs; each includes what it imports itself, so they overlap):
//
//   react-dom 66.3 kB (67.4 with react) · react 1.1 kB · react-router 15.4 kB · formik 13.5 kB
//   i18next 15.3 kB · react-i18next 18.3 kB · openapi-fetch 2.5 kB
//
// Together with the app's own code the login page comes to 121.7 kB (with the hydration of the prerendered
// screen, the passkey button and the autofill's start; @simplewebauthn/browser and the ceremonies load on demand);
// the headroom is about 3.3 kB. Chunks loaded on demand (yup, the region step, the other pages, the network
// code, the passkey flow) do not count; they are listed too. The translations are JSON files beside the app
// (/locales), not JavaScript. The build must hold no source maps.
//
//   node web/scripts/check-size.mjs                 builds web/ into a temporary folder and checks it
//   node web/scripts/check-size.mjs --dist <dir>    checks a build made with `vite build --manifest`
//   add --json for a machine-readable answer
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** 125 KB, counted in decimal kilobytes (the stricter reading: 125 000 bytes). */
export const LIMIT_BYTES = 125_000;

const web = resolve(import.meta.dirname, '..');

function gzipSize(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** Sizes of the entry's static closure (initial) and of every other JavaScript chunk (lazy), from the manifest. */
export function measure(dist) {
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build with \`vite build --manifest\``);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`Expected one entry chunk, found ${entries.length}`);

  const initial = new Map();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || initial.has(chunk.file)) return;
    initial.set(chunk.file, gzipSize(join(dist, chunk.file)));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entries[0][0]);

  const lazy = new Map();
  for (const chunk of Object.values(manifest)) {
    if (chunk.file.endsWith('.js') && !initial.has(chunk.file)) lazy.set(chunk.file, gzipSize(join(dist, chunk.file)));
  }
  const initialBytes = [...initial.values()].reduce((sum, bytes) => sum + bytes, 0);
  const sourceMaps = readdirSync(dist, { recursive: true }).filter((file) => String(file).endsWith('.map'));
  const runtime = renderer([...initial.keys()].map((file) => readFileSync(join(dist, file), 'utf8')).join('\n'));
  const ok =
    initialBytes <= LIMIT_BYTES && sourceMaps.length === 0 && runtime.renderer === 'react-dom' && runtime.production;
  return {
    initialBytes,
    runtime,
    limitBytes: LIMIT_BYTES,
    ok,
    initial: Object.fromEntries(initial),
    lazy: Object.fromEntries(lazy),
    sourceMaps,
  };
}

/**
 * The renderer the login page runs, from the build information react-dom registers for its developer tools
 * (`bundleType` 0 is React's production build): the build must ship react-dom itself, not a look-alike.
 */
export function renderer(code) {
  const found = /bundleType:(\d+),version:["'`]([^"'`]+)["'`],rendererPackageName:["'`]([^"'`]+)["'`]/.exec(code);
  if (!found) return { renderer: null, version: null, production: false };
  return { renderer: found[3], version: found[2], production: found[1] === '0' };
}

function build() {
  const out = mkdtempSync(join(tmpdir(), 'sign-in-size-'));
  const vite = join(web, '..', 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--manifest', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: web,
      stdio: 'inherit',
      // A production build whatever the caller's NODE_ENV (Jest sets `test`, which would bundle React's development build).
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (result.status !== 0) throw new Error('vite build failed');
  return out;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const args = process.argv.slice(2);
  const distIndex = args.indexOf('--dist');
  const dist = distIndex >= 0 ? resolve(args[distIndex + 1]) : build();
  try {
    const report = measure(dist);
    if (args.includes('--json')) {
      console.log(JSON.stringify(report));
    } else {
      const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
      console.log('Initial JavaScript (entry + static imports, gzip -9):');
      for (const [file, bytes] of Object.entries(report.initial)) console.log(`  ${kb(bytes).padStart(10)}  ${file}`);
      console.log(`  ${kb(report.initialBytes).padStart(10)}  total, limit ${kb(report.limitBytes)}`);
      console.log('Loaded on demand:');
      for (const [file, bytes] of Object.entries(report.lazy)) console.log(`  ${kb(bytes).padStart(10)}  ${file}`);
      const { renderer: name, version, production } = report.runtime;
      console.log(`Renderer: ${name ?? 'not found'} ${version ?? ''}${production ? ' (production build)' : ''}`);
      if (name !== 'react-dom' || !production)
        console.log("✘ the login page does not run react-dom's production build");
      if (report.sourceMaps.length > 0) console.log(`✘ source maps in the build: ${report.sourceMaps.join(', ')}`);
      if (report.initialBytes > report.limitBytes)
        console.log(`✘ ${kb(report.initialBytes - report.limitBytes)} over the limit`);
      else console.log('✔ within the limit');
    }
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    if (distIndex < 0) rmSync(dist, { recursive: true, force: true });
  }
}
