import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/** Ports the developer's `npm start` uses: the tests never take them. */
const RESERVED = new Set([4000, 4001, 4100, 5173]);

/** A port that is free on the loopback interface right now (the OS picks it). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    if (port > 0 && !RESERVED.has(port)) return port;
  }
}

/** Child processes this test run started; stopped by pid, never by name. */
const started = new Set<ChildProcess>();

// Last resort if the test process dies without its afterAll: do not leave servers behind.
process.once('exit', () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface Spawned {
  child: ChildProcess;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | string | null>;
}

/** Starts a process with its output in `logFile` (its folder is made when missing). */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Spawned {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  started.add(child);
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => {
      started.delete(child);
      log.end();
      resolve(code ?? signal);
    });
  });
  return { child, exited };
}

/** Runs a command to its end; rejects with the tail of its output when it fails. */
export async function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Promise<void> {
  const { exited } = startProcess(command, args, options);
  const code = await exited;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}; see ${options.logFile}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopProcess({ child, exited }: Spawned, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx, the process exits, or the time is up. */
export async function waitForHttp(url: string, spawned: Spawned | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: unknown = undefined;
  void spawned?.exited.then((code) => {
    exitedWith = code;
  });
  while (Date.now() < deadline) {
    if (exitedWith !== undefined)
      throw new Error(`The process for ${url} exited with ${String(exitedWith)} before it answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
