// A lone user on a busy machine is never refused. A region runs as its own process beside busy-loop processes, two
// per core (what a busy host or a CPU-limited container gives it); one client signs in and uses the API
// sequentially. Every answer is slow, but none is a 503: admission control
// decides from what the instance holds (one request in flight is below its floor), not from how late the host
// lets its event loop run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, stopProcess, type Spawned } from '../../../test-support/processes';

const root = join(__dirname, '..', '..', '..');
const v1 = { 'cosafe-core-api-version': '1' };
const hogSeconds = 15;

describe('a lone user while hog processes take the CPU', () => {
  let dir: string;
  let region: Spawned;
  let base = '';
  const hogs: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'core-hog-test-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    region = startProcess(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        REGION: 'eu-north-1',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_BASE_URL: base,
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      logFile: join(dir, 'region.log'),
    });
    const deadline = Date.now() + 120_000;
    for (;;) {
      const status = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) })
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) break;
      if (Date.now() > deadline || region.child.exitCode !== null)
        throw new Error(`the region did not start; see ${join(dir, 'region.log')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 150_000);

  afterAll(async () => {
    for (const hog of hogs) if (hog.exitCode === null) hog.kill('SIGKILL');
    if (region) await stopProcess(region, 20_000);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('signs in, reads and refreshes sequentially without a single 503', async () => {
    // Two busy loops per core, each ending on its own after a bounded time.
    for (let i = 0; i < availableParallelism() * 2; i++)
      hogs.push(
        spawn(
          process.execPath,
          ['-e', `const end = Date.now() + ${(hogSeconds + 20) * 1000}; while (Date.now() < end);`],
          {
            stdio: 'ignore',
          },
        ),
      );
    await new Promise((r) => setTimeout(r, 1_000));
    const statuses: number[] = [];
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...v1, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(20_000),
      }).catch(() => null);
      // 0: no answer within 20 s.
      statuses.push(res?.status ?? 0);
      return res ?? new Response(null, { status: 599 });
    };
    const end = Date.now() + hogSeconds * 1_000;
    let rounds = 0;
    while (Date.now() < end) {
      const session = await call(
        'POST',
        '/core/v1/sessions',
        {},
        {
          grantType: 'password',
          email: 'anna@demo.test',
          password: 'Demo-Password-1!',
        },
      );
      if (session.status !== 201) break;
      const { id, accessToken, refreshToken } = (await session.json()) as Record<string, string>;
      let token = accessToken;
      let refresh = refreshToken;
      for (let i = 0; i < 5 && Date.now() < end; i++) {
        await call('GET', '/core/v1/tenants', { authorization: `Bearer ${token}` });
        const rotated = await call('PUT', `/core/v1/sessions/${id}`, { authorization: `Bearer ${refresh}` });
        if (rotated.status !== 200) break;
        ({ accessToken: token, refreshToken: refresh } = (await rotated.json()) as Record<string, string>);
      }
      await call('DELETE', `/core/v1/sessions/${id}`, { authorization: `Bearer ${token}` });
      rounds++;
    }
    expect(statuses.filter((s) => s === 503)).toEqual([]);
    expect(statuses.filter((s) => s >= 300 || s === 0)).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    // At least a sign-in, a read, a refresh and a logout.
    expect(statuses.length).toBeGreaterThanOrEqual(4);
  }, 90_000);
});
