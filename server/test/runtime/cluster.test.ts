// A small cluster (`npm run cluster`): three instances started at once on an empty PostgreSQL database behind
// HAProxy health-checked on /readyz. One instance is killed (kill -9) while requests flow through HAProxy:
// every request still succeeds, and a token issued before the kill still works (the instances share secrets).
// Skipped, with a message, only where haproxy is not installed (CI installs it).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, stopProcess, type Spawned } from '../../../test-support/processes';
import { scratchDatabase, type ScratchDatabase } from './scratch-database';

const root = join(__dirname, '..', '..', '..');
const haproxy = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].some((p) => existsSync(p));
if (!haproxy) console.warn('cluster test skipped: haproxy is not installed (apt-get install haproxy)');
const withHaproxy = haproxy ? describe : describe.skip;

const v1 = { 'cosafe-core-api-version': '1' };

withHaproxy('a cluster of three instances behind HAProxy', () => {
  let logDir: string;
  let database: ScratchDatabase;
  let cluster: Spawned;
  let url = '';
  const pids: number[] = [];

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'core-cluster-test-'));
    database = await scratchDatabase(logDir);
    cluster = startProcess(process.execPath, [join(root, 'scripts', 'cluster.mjs'), '3'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url, CLUSTER_PORT: '0', CLUSTER_BUILD: 'source' },
      logFile: join(logDir, 'cluster.log'),
    });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      cluster.child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk;
        for (const m of seen.matchAll(/^instance i\d pid (\d+)/gm))
          if (!pids.includes(Number(m[1]))) pids.push(Number(m[1]));
        const ready = /^cluster ready: (\S+)/m.exec(seen);
        if (ready) {
          url = ready[1];
          resolve();
        }
      });
      void cluster.exited.then((code) =>
        reject(new Error(`the cluster did not start (${code}); see ${join(logDir, 'cluster.log')}`)),
      );
    });
  }, 240_000);

  afterAll(async () => {
    if (cluster) await stopProcess(cluster, 30_000);
    await database?.drop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  }, 60_000);

  test('requests keep succeeding through HAProxy while one instance is killed (kill -9)', async () => {
    expect(pids).toHaveLength(3);
    const session = await fetch(`${url}/core/v1/sessions`, {
      method: 'POST',
      headers: { ...v1, 'content-type': 'application/json' },
      body: JSON.stringify({ grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' }),
    });
    expect(session.status).toBe(201);
    const { accessToken } = (await session.json()) as { accessToken: string };
    const call = async () =>
      (
        await fetch(`${url}/core/v1/tenants`, {
          headers: { ...v1, authorization: `Bearer ${accessToken}` },
          signal: AbortSignal.timeout(10_000),
        })
      ).status;

    const statuses: number[] = [];
    let killed = false;
    const load = (async () => {
      const end = Date.now() + 6_000;
      while (Date.now() < end) {
        const batch = await Promise.all([call(), call(), call(), call()].map((p) => p.catch(() => 0)));
        statuses.push(...batch);
        if (!killed && statuses.length >= 20) {
          killed = true;
          process.kill(pids[0], 'SIGKILL');
        }
      }
    })();
    await load;
    expect(killed).toBe(true);
    expect(statuses.length).toBeGreaterThan(40);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 60_000);
});
