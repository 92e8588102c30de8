// The server's runtime dependencies are what its code imports: a package listed in server/package.json's
// dependencies that no file of server/src imports (and that no imported package needs as a peer) would ride along
// in every production install. scripts/check-lock.mjs checks the other half: a production install carries
// nothing but these and what they need (check-lock.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const server = join(__dirname, '..', '..');
const root = join(server, '..');
const manifest = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The packages named by import, import() and require() in server/src. */
function imported(): Set<string> {
  const names = new Set<string>();
  const specifier = /(?:from\s+|import\(\s*|require\(\s*)'([^'.][^']*)'/g;
  for (const file of sources(join(server, 'src')))
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(specifier)) {
      if (spec.startsWith('node:')) continue;
      const parts = spec.split('/');
      names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  return names;
}

/** The required (non-optional) peers of a package, from its own package.json. */
function peersOf(name: string): string[] {
  const path = [join(server, 'node_modules', name), join(root, 'node_modules', name)];
  for (const dir of path) {
    try {
      const own = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      return Object.keys(own.peerDependencies ?? {}).filter((peer) => !own.peerDependenciesMeta?.[peer]?.optional);
    } catch {
      continue;
    }
  }
  return [];
}

/**
 * The commands the root package's install scripts run: a production install runs them too (patch-package applies
 * the patches under patches/ to what the server imports), so they are runtime dependencies without an import.
 */
function installCommands(): Set<string> {
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const scripts = ['preinstall', 'install', 'postinstall'].map((name) => own.scripts?.[name] ?? '');
  return new Set(scripts.flatMap((script) => script.split(/&&|;/).map((command) => command.trim().split(/\s+/)[0])));
}

test('every runtime dependency of the server is imported by server/src, a peer an imported one needs, or an install script', () => {
  const uses = imported();
  const peers = new Set([...uses].flatMap(peersOf));
  const install = installCommands();
  const unused = Object.keys(manifest.dependencies).filter(
    (name) => !uses.has(name) && !peers.has(name) && !install.has(name),
  );
  expect(unused).toEqual([]);
  // Not vacuous: the install script's command is a dependency here only because of that rule.
  expect([...install].filter((command) => command in manifest.dependencies)).toEqual(['patch-package']);
});

test('the server imports nothing of the sign-in app (react, react-dom, i18next are bundled into web/dist)', () => {
  const uses = imported();
  for (const name of ['react', 'react-dom', 'react-router', 'preact', 'i18next', 'react-i18next', 'yup'])
    expect(uses.has(name)).toBe(false);
  for (const name of ['react', 'react-dom', 'typescript'])
    expect(Object.keys(manifest.dependencies)).not.toContain(name);
});
