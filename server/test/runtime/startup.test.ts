// How a region starts, as an operator sees it: a start that cannot go on says why in one line (JSON in production,
// naming the problem), a development start refuses a database that is not local unless asked, and the ready line
// says which mode, database and transport this start runs with.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../../test-support/processes';

jest.setTimeout(120_000);

const root = resolve(__dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'core-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `node server/src/main.ts` with only `env`; resolves when it exits, or once `until` appears in stdout. */
function start(env: Record<string, string>, until?: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'src', 'main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { code: null, stdout: '', stderr: '' };
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (chunk) => {
      run.stdout += chunk;
      if (until && run.stdout.includes(until)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => (run.stderr += chunk));
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ ...run, code });
    });
  });
}

const signingKey = () => {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: 'k1', alg: 'ES256', use: 'sig' };
};

const production = (overrides: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  INSTANCE_ID: 'eu-north-1-a',
  PORT: '0',
  PUBLIC_BASE_URL: 'https://api.example',
  SIGN_IN_APP_URL: 'https://login.example',
  WEBAUTHN_RP_ID: 'login.example',
  WEBAUTHN_ORIGINS: 'https://login.example',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing-listens-here',
  SECRET_KEY: randomBytes(32).toString('base64'),
  ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([signingKey()]),
  SMTP_URL: 'smtp://127.0.0.1:1',
  SMS_API_URL: 'https://sms.example',
  ...overrides,
});

/** Exactly one line, on stdout, that is JSON: the failure, named. */
function oneJsonLine(run: Run) {
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('');
  const lines = run.stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]);
  expect(line).toMatchObject({
    level: 60,
    instance: expect.any(String),
    msg: `core API failed to start: ${line.problem}`,
  });
  expect(lines[0]).not.toMatch(/\n\s+at |at .*\.ts:\d+/);
  return line;
}

describe('a production start that fails is one JSON line naming the problem', () => {
  test('a misspelt NODE_ENV: configuration (and not development mode)', async () => {
    const line = oneJsonLine(await start(production({ NODE_ENV: 'Production' })));
    expect(line.problem).toBe('configuration');
    expect(line.problems).toContain('NODE_ENV must be one of production, development, test');
  });

  test('missing secrets: configuration, every one listed', async () => {
    const line = oneJsonLine(await start(production({ SECRET_KEY: '', DATABASE_URL: '' })));
    expect(line).toMatchObject({ problem: 'configuration', instance: 'eu-north-1-a' });
    expect(line.problems).toEqual(
      expect.arrayContaining([
        'DATABASE_URL is required in production',
        expect.stringMatching(/^SECRET_KEY is required/),
      ]),
    );
  });

  test('a signing key that is not a usable private key: signing-keys, before the database is tried', async () => {
    const broken = { ...signingKey(), x: 'AAAA' };
    const line = oneJsonLine(await start(production({ ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([broken]) })));
    expect(line.problem).toBe('signing-keys');
    expect(line.reason).toEqual(expect.any(String));
  });

  test('a database that does not answer: database', async () => {
    const line = oneJsonLine(await start(production()));
    expect(line.problem).toBe('database');
    expect(line.reason).toMatch(/ECONNREFUSED/);
  });
});

describe('development mode', () => {
  test('on a database that is not local is refused in one line unless DEV_ALLOW_REMOTE_DATABASE=true', async () => {
    const run = await start({ NODE_ENV: 'development', DATABASE_URL: 'postgres://app@db.internal.example/core' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /DATABASE_URL is not a local database: development mode there needs DEV_ALLOW_REMOTE_DATABASE=true/,
    );
  });

  test('with demo data on a database that holds other data is refused in one line, and seeds nothing', async () => {
    const dataDir = join(work, 'real-data');
    const tool = await new Promise<Run>((done, fail) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join('server', 'src', 'admin', 'main.ts'),
          'tenant',
          'create',
          '--name',
          'City Hall',
          '--website',
          'https://city.example',
        ],
        {
          cwd: root,
          env: { PATH: process.env.PATH, NODE_ENV: 'development', DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const run: Run = { code: null, stdout: '', stderr: '' };
      child.stdout.on('data', (chunk) => (run.stdout += chunk));
      child.stderr.on('data', (chunk) => (run.stderr += chunk));
      child.on('error', fail);
      child.on('exit', (code) => done({ ...run, code }));
    });
    expect(tool).toMatchObject({ code: 0, stderr: '' });
    const run = await start({
      NODE_ENV: 'development',
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'core API failed to start (demo-data): Demo data not seeded: the database holds data that is not demo data (1 tenant(s), 0 user(s)). Start with SEED_DEMO_DATA=false, or use an empty database.\n',
    );
    expect(run.stdout).not.toContain('core API listening');
  });

  test('says in its ready line which mode, database and transport it runs with', async () => {
    const port = await freePort();
    const run = await start(
      {
        NODE_ENV: 'development',
        PORT: String(port),
        DATA_DIR: join(work, 'ready'),
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        INSTANCE_ID: 'dev-1',
      },
      'core API listening',
    );
    const ready = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => String(l.msg).startsWith('core API listening'));
    expect(ready).toMatchObject({
      msg: 'core API listening (development mode, embedded PGlite database, messages kept in the development outbox)',
      mode: 'development',
      database: 'pglite',
      transport: 'outbox',
      instance: 'dev-1',
    });
  });
});
