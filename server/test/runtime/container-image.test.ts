// The container image's Dockerfile, as far as it can be checked without a container engine: both stages start
// from a base image pinned by digest, the run stage installs nothing (the production dependencies are copied from
// the build stage), and the HEALTHCHECK is a liveness probe that starts no Node process. Its command is run here
// with bash, as the container runs it, against servers that answer /healthz 200, answer 503, hang, or are absent.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dockerfile = readFileSync(join(__dirname, '..', '..', '..', 'Dockerfile'), 'utf8');
/** The instructions, continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const stages = instructions.reduce<string[][]>((all, line) => {
  if (/^FROM\s/i.test(line)) all.push([]);
  all.at(-1)?.push(line);
  return all;
}, []);
const runStage = stages.at(-1) ?? [];

/** The HEALTHCHECK's command in exec form: the JSON array after CMD. */
function healthcheckCommand(): string[] {
  const line = runStage.find((l) => /^HEALTHCHECK\s/i.test(l));
  if (!line) throw new Error('the run stage has no HEALTHCHECK');
  return JSON.parse(line.slice(line.search(/\sCMD\s/) + 5)) as string[];
}

/** Runs the health check as the container would, with PORT set; resolves with its exit code and time taken. */
function probe(port: number): Promise<{ code: number | null; ms: number }> {
  const [command, ...args] = healthcheckCommand();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started });
    });
  });
}

const listen = (server: Server | TcpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server | TcpServer) => new Promise((resolve) => server.close(resolve));

describe('the Dockerfile', () => {
  test('has a build stage and a run stage, each from a base image pinned by digest', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const [from] of stages) expect(from).toMatch(/^FROM\s+\S+@sha256:[0-9a-f]{64}(\s+AS\s+\S+)?$/i);
  });

  test('the run stage installs nothing: the production dependencies come from the build stage', () => {
    expect(runStage.filter((l) => /^RUN\s/i.test(l))).toEqual([]);
    expect(runStage.join('\n')).not.toMatch(/\b(npm|npx|yarn|pnpm|apt-get|apk|curl|wget)\b/);
    expect(runStage).toContainEqual(expect.stringMatching(/^COPY\s+--from=build\s+\/release\s/));
    // The build stage makes that production install, from npm's cache of the full install (no registry).
    expect(stages[0].join('\n')).toMatch(/cd \/release && npm ci --omit=dev --offline/);
  });

  test('the health check is a liveness probe of /healthz that starts no Node process', () => {
    const command = healthcheckCommand();
    expect(command[0]).not.toMatch(/node/);
    expect(command.join(' ')).toContain('/healthz');
    expect(command.join(' ')).not.toContain('/readyz');
  });
});

describe('the health check command', () => {
  test('passes when /healthz answers 200', async () => {
    const server = createServer((req, res) =>
      req.url === '/healthz' ? res.end('{"status":"ok"}') : res.writeHead(404).end(),
    );
    const port = await listen(server);
    try {
      expect((await probe(port)).code).toBe(0);
    } finally {
      await close(server);
    }
  });

  test('fails when /healthz answers an error, when nothing listens, and when the server never answers', async () => {
    const failing = createServer((_req, res) => res.writeHead(503).end());
    const held: Socket[] = [];
    const hanging = createTcpServer((socket) => void held.push(socket));
    const [failingPort, hangingPort] = [await listen(failing), await listen(hanging)];
    const absent = createTcpServer();
    const absentPort = await listen(absent);
    await close(absent);
    try {
      expect((await probe(failingPort)).code).not.toBe(0);
      expect((await probe(absentPort)).code).not.toBe(0);
      // It gives up by itself (read -t 2), within Docker's --timeout=3s.
      const hung = await probe(hangingPort);
      expect(hung.code).not.toBe(0);
      expect(hung.ms).toBeLessThan(3_000);
    } finally {
      held.forEach((socket) => socket.destroy());
      failing.closeAllConnections();
      await Promise.all([close(failing), close(hanging)]);
    }
  });
});
