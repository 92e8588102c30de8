import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const serverDir = join(__dirname, '..');

/** CPU time (user + system) a process has used so far, in milliseconds (Linux /proc). */
export function cpuMillis(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** CPU time (ms) of the process's main thread, and of all its other threads (thread pool, GC, compiler). */
export function cpuSplitMillis(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    if (tid === String(pid)) main += ms;
    else others += ms;
  }
  return { main, others };
}

/**
 * `BENCH_SERVER_CPUS=0` pins the servers the bench starts to those CPUs (`taskset`), so that the load generator,
 * run with `taskset -c 1 npm run bench`, has a core of its own.
 */
function pin(child: ChildProcess): void {
  const cpus = process.env.BENCH_SERVER_CPUS;
  if (cpus && child.pid) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(child.pid)], { stdio: 'ignore' });
}

export function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

export async function startHello(port: number): Promise<ChildProcess> {
  const child = fork(join(__dirname, 'hello.ts'), [], {
    env: { ...process.env, PORT: String(port) },
    execArgv: ['--import', 'tsx'],
    stdio: 'ignore',
  });
  pin(child);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`hello server exited ${code}`)));
  });
  return child;
}

export async function startBetterAuth(port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = fork(join(__dirname, 'better-auth-server.mts'), [], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: 'bench-only-secret-not-used-anywhere-else-0123456789',
    },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`Better Auth server exited ${code}`)));
  });
  return child;
}

/**
 * Starts a region from the production build (`npm run build`: server/dist, run by plain Node), as in production
 * (no response validation), development seed data included.
 */
export async function startRegion(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(serverDir, 'dist', 'main.js'), [], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      REGION: 'eu-north-1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      VALIDATE_RESPONSES: 'false',
      ...env,
    },
    // The young generation production runs with (README, Production).
    execArgv: ['--max-semi-space-size=16'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  pin(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`region exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('region did not become ready within 60 s');
}

/**
 * Starts a region as `npm start` runs it (scripts/start.mjs): from the TypeScript sources through tsx, in
 * development mode with that mode's defaults (response validation on, logs at info, to a pipe the parent reads),
 * with the memory bounds of scripts/region-runtime.mjs. Only the port, the database and `env` differ.
 */
export async function startRegionFromSource(
  port: number,
  env: Record<string, string>,
  { memoryBounds = true } = {},
): Promise<ChildProcess> {
  const { regionExecArgv, regionMemoryEnv } = (await import(
    join(serverDir, '..', 'scripts', 'region-runtime.mjs')
  )) as { regionExecArgv: string[]; regionMemoryEnv: Record<string, string> };
  const child = fork(join(serverDir, 'src', 'main.ts'), [], {
    env: {
      ...(memoryBounds ? regionMemoryEnv : {}),
      ...process.env,
      NODE_ENV: 'development',
      REGION: 'eu-north-1',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      ...env,
    },
    execArgv: [...(memoryBounds ? regionExecArgv : []), '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // npm start reads the region's log lines from a pipe; so does this (and drops them).
  child.stdout?.resume();
  pin(child);
  return waitReady(child, port);
}

async function waitReady(child: ChildProcess, port: number): Promise<ChildProcess> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`region exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('region did not become ready within 120 s');
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
