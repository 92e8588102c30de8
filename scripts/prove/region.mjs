// Starts and stops core API regions as real processes on loopback for the out-of-process checks (contract tests,
// faults, load): `node --import tsx server/src/main.ts`, or the production build (`node server/dist/main.js`,
// after `npm run build`) with `build: 'dist'`; a free port, a fresh data directory, bounded waits.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the OS picks it), on 127.0.0.1. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Polls `check` until it answers true, at most `timeoutMs`. */
export async function waitFor(what, check, { timeoutMs = 60_000, intervalMs = 200 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export async function ready(baseUrl) {
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(3_000) }).catch(() => null);
  return res?.status ?? 0;
}

/**
 * A region process. `env` adds to a development configuration (demo data seeded, dev outbox) on a free port, with
 * a fresh data directory (PGlite's, unless DATABASE_URL is given, and the development secrets). Output is kept (the
 * last 1-2 MB) for diagnosis. `production: true` runs the compiled build (`node server/dist/main.js`, after
 * `npm run build`) in production mode instead: `env` must then hold what production requires (DATABASE_URL, the
 * secrets, SIGN_IN_APP_URL, live channels), and nothing is seeded (seed-demo.mjs).
 */
export async function startRegion({
  env = {},
  port,
  dataDir,
  region = 'eu-north-1',
  readyTimeoutMs = 90_000,
  build = 'source',
  production = false,
} = {}) {
  port ??= await freePort();
  const entry = build === 'dist' || production ? ['server/dist/main.js'] : ['--import', 'tsx', 'server/src/main.ts'];
  if (build === 'dist' || production) requireBuild();
  // Development keeps the region's secrets (signing keys, secret key) in its data directory, also with PostgreSQL:
  // a restart of the same region passes the same dataDir. A directory made here is removed by cleanup().
  const ownDir = !dataDir;
  dataDir ??= tempDir(`core-${region}-`);
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: production ? 'production' : 'development',
      REGION: region,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output += chunk;
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const handle = {
    child,
    port,
    baseUrl,
    dataDir,
    get pid() {
      return child.pid;
    },
    get output() {
      return output;
    },
    exited,
    /** SIGTERM, then SIGKILL after 15 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exited, sleep(15_000).then(() => null)]);
      if (!done) child.kill('SIGKILL');
      await exited;
    },
    /** kill -9: no shutdown, no flushing, in-flight work abandoned. */
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    rssMegabytes() {
      const line = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('VmRSS:'));
      return Number(line.replace(/\D+/g, '')) / 1024;
    },
    cleanup() {
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      `region ${region} on ${baseUrl} to be ready`,
      async () => {
        if (child.exitCode !== null) throw new Error(`region exited with ${child.exitCode}:\n${output.slice(-4000)}`);
        return (await ready(baseUrl)) === 200;
      },
      { timeoutMs: readyTimeoutMs, intervalMs: 250 },
    );
  } catch (error) {
    await handle.kill9();
    handle.cleanup();
    throw new Error(`${error.message}\n${output.slice(-4000)}`);
  }
  return handle;
}

/** The production build must exist and be at least as new as the sources it was built from. */
export function requireBuild() {
  const built = join(root, 'server', 'dist', 'main.js');
  if (!existsSync(built)) throw new Error('server/dist/main.js is missing: run `npm run build` first');
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const path = join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  // The compiler rewrites only the files that changed: the build is as new as its newest file.
  if (newest(join(root, 'server', 'src')) > newest(join(root, 'server', 'dist')))
    throw new Error('server/dist is older than server/src: run `npm run build` first');
}

/** A region run as in production for load and profile runs: no response validation, logs at warn, behind a proxy. */
export const productionLikeEnv = { VALIDATE_RESPONSES: 'false', LOG_LEVEL: 'warn', TRUST_PROXY: '1' };

export const v1 = { 'cosafe-core-api-version': '1' };

/** JSON over fetch with the version header; answers { status, body, headers }. */
export async function api(baseUrl, method, path, { body, token, tenant, headers = {}, timeoutMs = 15_000 } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...v1,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(tenant ? { 'cosafe-tenant-id': String(tenant) } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
