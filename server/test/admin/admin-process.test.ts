// The operator tool as an operator runs it: `npm run admin -- …` is this process, on an embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'admin-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function admin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'src', 'admin', 'main.ts'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'development', REGION: 'eu-north-1', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('npm run admin', () => {
  test('--help exits 0 without opening the database', async () => {
    const run = await admin(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: admin [options] [command]');
  }, 60_000);

  test('creates a tenant in the data directory and lists it in the next run', async () => {
    const created = await admin([
      'tenant',
      'create',
      '--name',
      'Process School',
      '--website',
      'https://process.example',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^Tenant \d+ created: Process School\n$/);
    expect((await admin(['tenant', 'list'])).stdout).toContain('Process School');
  }, 120_000);

  test('a bad argument exits 1 with one line and no stack trace', async () => {
    const run = await admin(['user', 'invite', '--tenant', '1', '--email', 'nope', '--name', 'X']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "error: option '--email <email>' argument 'nope' is invalid. Must be an email address.",
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  test('refuses a data directory a running region holds, instead of corrupting it', async () => {
    // This test process stands in for the region: alive, and holding the lock.
    writeFileSync(join(dataDir, 'region.lock'), String(process.pid));
    try {
      const run = await admin(['tenant', 'list']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `error: The database in ${dataDir} is in use by process ${process.pid} (a running region?). Stop it first, or use DATABASE_URL with PostgreSQL.\n`,
      );
    } finally {
      rmSync(join(dataDir, 'region.lock'), { force: true });
    }
  }, 60_000);
});
