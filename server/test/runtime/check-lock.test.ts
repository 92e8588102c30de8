// scripts/check-lock.mjs, the guard in `npm test` that keeps package-lock.json usable by `npm ci` on every
// platform, on small lock files made here: the shape npm writes when it leaves other platforms' binaries out.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(__dirname, '..', '..', '..', 'scripts', 'check-lock.mjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

type Packages = Record<string, Record<string, unknown>>;

function check(manifest: Record<string, unknown>, packages: Packages) {
  const dir = mkdtempSync(join(tmpdir(), 'check-lock-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'tool'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', workspaces: ['tool'], ...manifest }));
  writeFileSync(join(dir, 'tool', 'package.json'), JSON.stringify({ name: 'tool', dependencies: { native: '1.0.0' } }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'app', lockfileVersion: 3, packages }));
  const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

const native = {
  version: '1.0.0',
  optionalDependencies: { 'native-linux-x64': '1.0.0', 'native-darwin-arm64': '1.0.0' },
};
const complete: Packages = {
  '': { name: 'app', workspaces: ['tool'] },
  tool: { name: 'tool', dependencies: { native: '1.0.0' } },
  'node_modules/tool': { resolved: 'tool', link: true },
  'node_modules/native': native,
  'node_modules/native-linux-x64': { version: '1.0.0', optional: true, os: ['linux'], cpu: ['x64'] },
  'node_modules/native-darwin-arm64': { version: '1.0.0', optional: true, os: ['darwin'], cpu: ['arm64'] },
};

describe('npm run check:lock', () => {
  test('when every platform binary is locked, passes', () => {
    expect(check({}, complete)).toMatchObject({ status: 0 });
  });

  test('when another platform binary is missing from the lock, fails and names it', () => {
    const { 'node_modules/native-darwin-arm64': _left, ...pruned } = complete;
    const result = check({}, pruned);
    expect(result.status).toBe(1);
    expect(result.output).toContain('native (1.0.0) lacks 1 optional binary: native-darwin-arm64');
  });

  test('a nested copy finds the binaries locked further up, where Node would look', () => {
    const nested: Packages = {
      ...complete,
      'node_modules/other': { version: '1.0.0' },
      'node_modules/other/node_modules/native': native,
    };
    expect(check({}, nested).status).toBe(0);
    const { 'node_modules/native-linux-x64': _left, ...pruned } = nested;
    const result = check({}, pruned);
    expect(result.output).toContain('- native (1.0.0) lacks 1 optional binary: native-linux-x64');
    expect(result.output).toContain('- other/node_modules/native (1.0.0) lacks 1 optional binary: native-linux-x64');
  });

  test('when package.json asks for a version the lock does not record, fails like npm ci would', () => {
    const result = check({ devDependencies: { native: '2.0.0' } }, complete);
    expect(result.status).toBe(1);
    expect(result.output).toContain('devDependencies.native is 2.0.0 but the lock has nothing');
  });
});

describe('npm run check:lock: the production install', () => {
  /** A repository with the server and the sign-in app as workspaces; `web` is the app's package.json. */
  function checkWorkspaces(web: Record<string, unknown>, packages: Packages) {
    const dir = mkdtempSync(join(tmpdir(), 'check-lock-'));
    dirs.push(dir);
    const server = { name: 'core-server', dependencies: { express: '5.0.0' } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', workspaces: ['server', 'web'] }));
    for (const [name, manifest] of Object.entries({ server, web })) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'package.json'), JSON.stringify(manifest));
    }
    const lock = { '': { name: 'app', workspaces: ['server', 'web'] }, server, web, ...packages };
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'app', lockfileVersion: 3, packages: lock }));
    const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    return { status: result.status, output: result.stdout + result.stderr };
  }
  const links: Packages = {
    'node_modules/core-server': { resolved: 'server', link: true },
    'node_modules/sign-in-web': { resolved: 'web', link: true },
  };
  const serverPackages: Packages = {
    'node_modules/express': { version: '5.0.0', dependencies: { 'body-parser': '^2' } },
    'node_modules/body-parser': {
      version: '2.0.0',
      peerDependencies: { typescript: '*' },
      peerDependenciesMeta: { typescript: { optional: true } },
    },
  };

  test('when the sign-in app bundles its packages (devDependencies), passes', () => {
    const web = { name: 'sign-in-web', devDependencies: { react: '19.0.0', typescript: '5.9.3' } };
    const packages = {
      ...links,
      ...serverPackages,
      'node_modules/react': { version: '19.0.0', dev: true },
      'node_modules/typescript': { version: '5.9.3', dev: true },
    };
    expect(checkWorkspaces(web, packages)).toMatchObject({ status: 0 });
  });

  test('when a production install would carry a package the server does not use, fails and names it', () => {
    // The app's packages as dependencies: npm ci --omit=dev installs them, and the optional peer they share.
    const web = { name: 'sign-in-web', dependencies: { react: '19.0.0', i18next: '27.0.0' } };
    const packages = {
      ...links,
      ...serverPackages,
      'node_modules/react': { version: '19.0.0' },
      'node_modules/i18next': { version: '27.0.0', peerDependencies: { typescript: '*' } },
      'node_modules/typescript': { version: '5.9.3', devOptional: true },
    };
    const result = checkWorkspaces(web, packages);
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      'a production install (npm ci --omit=dev) carries 3 packages the server does not need at run time: react@19.0.0, i18next@27.0.0, typescript@5.9.3',
    );
  });
});
