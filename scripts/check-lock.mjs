#!/usr/bin/env node
// `npm run check:lock`: fails when package-lock.json cannot serve `npm ci` on every platform. Packages such as
// @swc/core, esbuild or rolldown ship their native code as one optional dependency per platform; an install that
// leaves other platforms' entries out of the lock (an `npm install` over an existing node_modules, or a version
// whose binaries the registry does not have for every platform) gives a lock on which `npm ci` stops with
// "Missing: @swc/core-darwin-arm64@… from lock file" on a fresh clone, and a macOS or ARM machine gets a broken
// install. Each optional dependency a locked package declares must itself be locked where Node would find it.
// Also checks that the lock was written for this package.json (the same check `npm ci` makes first).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const packages = lock.packages ?? {};
const problems = [];

if (lock.lockfileVersion < 2)
  problems.push(`lockfileVersion ${lock.lockfileVersion}: regenerate it with npm 9 or later`);

/** Where Node resolves `name` from the package at `path` (a key of `packages`): its own node_modules, then each parent's. */
function locate(path, name) {
  let base = path;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

const missing = new Map();
for (const [path, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (locate(path, name)) continue;
    if (!missing.has(path)) missing.set(path, []);
    missing.get(path).push(name);
  }
}
for (const [path, names] of missing) {
  const owner = path.replace(/^node_modules\//, '') || manifest.name;
  problems.push(
    `${owner} (${packages[path].version ?? 'workspace'}) lacks ${names.length} optional ${names.length === 1 ? 'binary' : 'binaries'}: ${names.join(', ')}`,
  );
}

// The lock's record of the root and workspace manifests must match them, or `npm ci` refuses to start.
const sections = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
for (const workspace of ['', ...(manifest.workspaces ?? [])]) {
  const own = workspace ? JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) : manifest;
  const locked = packages[workspace] ?? {};
  for (const section of sections) {
    for (const [name, range] of Object.entries(own[section] ?? {})) {
      if (locked[section]?.[name] !== range)
        problems.push(
          `${workspace || 'package.json'}: ${section}.${name} is ${range} but the lock has ${locked[section]?.[name] ?? 'nothing'}`,
        );
    }
  }
}

// A production install (`npm ci --omit=dev`, at the root or with `--workspace server`) carries only what the
// server needs at run time: every package it installs (each lock entry not marked dev) must be reached from the
// server workspace's dependencies. The sign-in app is bundled into static files at build time, so its packages
// (react, i18next, ...) and the build tools (typescript, vite, ...) are devDependencies.
const runtime = 'server';
if (packages[runtime]) {
  const needed = new Set();
  const visit = (path) => {
    const entry = packages[path];
    if (!entry || needed.has(path)) return;
    needed.add(path);
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) {
      const found = locate(path, name);
      if (found) visit(found);
    }
  };
  visit(runtime);
  const workspaces = new Set(['', ...(manifest.workspaces ?? [])]);
  const carried = Object.entries(packages)
    .filter(([path, entry]) => !workspaces.has(path) && !entry.dev && !entry.link && !needed.has(path))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version}`);
  if (carried.length)
    problems.push(
      `a production install (npm ci --omit=dev) carries ${carried.length} ${carried.length === 1 ? 'package' : 'packages'} the server does not need at run time: ${carried.join(', ')} (make them devDependencies)`,
    );
}

if (problems.length) {
  console.error(`package-lock.json is not right for \`npm ci\`:\n- ${problems.join('\n- ')}`);
  console.error(
    'See docs/dependencies.md: pick versions whose binaries exist for every platform, keep build-only packages in devDependencies, then regenerate the lock.',
  );
  process.exit(1);
}
console.log(
  `package-lock.json: ${Object.keys(packages).length} entries, every platform's optional binaries locked, production install = the server's runtime dependencies`,
);
