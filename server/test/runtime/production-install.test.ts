// The compiled build as an operator deploys it: `npm run build -- --release DIR` (the same build as `npm run
// build`), a plain production install in DIR (`npm ci --omit=dev`: no devDependencies, so no tsx, TypeScript,
// Jest or swc, and nothing of the sign-in app, which is bundled into web/dist), then `npm run start:prod` (node
// server/dist/main.js in production mode) against an empty PostgreSQL database, which it migrates; a user signs in
// and uses the session, the docs page and the contract ship along; SIGTERM to npm reaches node, which drains.
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/db/database';
import { generateSigningKey } from '../../src/security/secrets';
import type { Services } from '../../src/services';
import { insertTenant } from '../support/fixtures';
import { goodPassword, insertUserWithPassword } from '../support/sign-in';
import { freePort, runToEnd, startProcess, type Spawned } from '../../../test-support/processes';
import { scratchDatabase, type ScratchDatabase } from './scratch-database';

jest.setTimeout(600_000);

const root = join(__dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'core-release-'));
const release = join(work, 'release');
const logFile = (name: string) => join(work, `${name}.log`);
const v1 = { 'cosafe-core-api-version': '1', 'content-type': 'application/json' };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Only what a production host has: no NODE_OPTIONS, no TEST_DATABASE_URL, nothing of Jest's. */
const hostEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? work,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? work, '.npm'),
};

let database: ScratchDatabase;
/** The processes under the npm process (Linux: /proc), recorded once the region is up. */
let regionPids: number[] = [];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process below `pid`, from the parent pids in /proc/<pid>/stat. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      continue; // ended meanwhile
    }
  }
  const below = (p: number): number[] =>
    [...parents].filter(([, parent]) => parent === p).flatMap(([child]) => [child, ...below(child)]);
  return below(pid);
}
let server: Spawned | null = null;
let baseUrl = '';

async function ready(url: string, timeoutMs: number, region: Spawned): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (region.child.exitCode !== null)
      throw new Error(`node server/dist/main.js exited (${region.child.exitCode}); see ${logFile('region')}`);
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the region did not answer /readyz within ${timeoutMs} ms; see ${logFile('region')}`);
}

beforeAll(async () => {
  const [db] = await Promise.all([
    scratchDatabase(work),
    runToEnd(process.execPath, [join(root, 'scripts', 'build.mjs'), '--release', release], {
      cwd: root,
      env: { ...process.env },
      logFile: logFile('build'),
    }),
  ]);
  database = db;
  // --prefer-offline: the packages are in npm's cache from the development install.
  await runToEnd(npm, ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: release,
    env: hostEnv,
    logFile: logFile('npm-ci'),
  });

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // --silent: npm's banner lines would mix with the region's JSON log lines.
  server = startProcess(npm, ['run', '--silent', 'start:prod'], {
    cwd: release,
    logFile: logFile('region'),
    env: {
      ...hostEnv,
      REGION: 'eu-north-1',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      SIGN_IN_APP_URL: 'https://sign-in.example.test',
      WEBAUTHN_RP_ID: 'sign-in.example.test',
      WEBAUTHN_ORIGINS: 'https://sign-in.example.test',
      DATABASE_URL: database.url,
      ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([await generateSigningKey('release-test-1')]),
      SECRET_KEY: randomBytes(32).toString('base64'),
      // Live channels are required in production; nothing here sends a message.
      SMTP_URL: 'smtp://127.0.0.1:9',
      SMS_API_URL: 'http://127.0.0.1:9/sms',
    },
  });
  await ready(baseUrl, 120_000, server);
  regionPids = server.child.pid ? descendants(server.child.pid) : [];
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  // A region that did not get the signal (the failure the start test is about) is not left running.
  for (const pid of regionPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run start:prod from a production install', () => {
  test('the install has no development dependencies, no TypeScript tooling and nothing of the sign-in app', () => {
    for (const dev of ['tsx', 'typescript', 'jest', '@swc/core', 'vite', '@redocly/cli'])
      expect(existsSync(join(release, 'node_modules', dev))).toBe(false);
    for (const bundled of ['react', 'react-dom', 'preact', 'i18next', 'react-i18next', 'react-router', 'yup'])
      expect(existsSync(join(release, 'node_modules', bundled))).toBe(false);
    for (const runtime of ['express', 'pg', 'argon2'])
      expect(existsSync(join(release, 'node_modules', runtime))).toBe(true);
    expect(existsSync(join(release, 'server', 'src'))).toBe(false);
    expect(existsSync(join(release, 'web', 'dist', 'index.html'))).toBe(true);
  });

  test('when a user signs in with a password, answers 201 with a session that works', async () => {
    // The region migrated the empty database at boot; an operator's data arrives, here straight into the tables.
    let handle: DatabaseHandle | null = null;
    try {
      handle = await openDatabase({ url: database.url, poolSize: 1 });
      const services = { db: handle.db } as Services;
      const tenant = await insertTenant(services);
      const user = await insertUserWithPassword(services, { tenants: [tenant] });

      const signIn = await fetch(`${baseUrl}/core/v1/sessions`, {
        method: 'POST',
        headers: v1,
        body: JSON.stringify({ grantType: 'password', email: user.email, password: goodPassword }),
      });
      expect(signIn.status).toBe(201);
      const session = (await signIn.json()) as { accessToken: string };
      const tenants = await fetch(`${baseUrl}/core/v1/tenants`, {
        headers: { ...v1, authorization: `Bearer ${session.accessToken}` },
      });
      expect(tenants.status).toBe(200);
      expect(JSON.stringify(await tenants.json())).toContain(`"id":${tenant}`);
    } finally {
      await handle?.close();
    }
  });

  test('the contract is enforced: a bad request answers 400 in the error envelope', async () => {
    const res = await fetch(`${baseUrl}/core/v1/sessions`, {
      method: 'POST',
      headers: v1,
      body: JSON.stringify({ grantType: 'password' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'error', error: { httpStatus: 400 } });
  });

  test('GET /docs serves the docs page shipped with the build', async () => {
    const res = await fetch(`${baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('createSession');
  });

  test('logs are JSON lines and the development outbox is not there', async () => {
    expect((await fetch(`${baseUrl}/dev/outbox`)).status).toBe(404);
    const lines = readFileSync(logFile('region'), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  // Last: it stops the region.
  test('SIGTERM to `npm run start:prod` reaches node: /readyz answers 503 while it drains, then all of it ends', async () => {
    expect(regionPids.length).toBeGreaterThan(0);
    server!.child.kill('SIGTERM');
    // Production drains 2 s (DRAIN_DELAY_MS) with /readyz at 503 before it stops accepting.
    let draining: number | null = null;
    for (let i = 0; i < 40 && draining !== 503; i++) {
      draining = (await fetch(`${baseUrl}/readyz`).catch(() => null))?.status ?? null;
      if (draining !== 503) await new Promise((r) => setTimeout(r, 50));
    }
    expect(draining).toBe(503);
    expect(await server!.exited).toBe(0);
    const log = readFileSync(logFile('region'), 'utf8');
    expect(log).toContain('shutting down: finishing in-flight requests');
    expect(log).toContain('"msg":"stopped"');
    // Nothing is left serving: no re-parented node.
    for (let i = 0; i < 50 && regionPids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(regionPids.filter(alive)).toEqual([]);
    expect(await fetch(`${baseUrl}/readyz`).catch(() => 'refused')).toBe('refused');
  });
});
