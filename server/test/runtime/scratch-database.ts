// An empty PostgreSQL database for a test that runs the server as a separate process: a database of its own on
// TEST_DATABASE_URL's server (dropped afterwards), or, where that is unset, a private PostgreSQL server started
// from the machine's binaries (scripts/prove/postgres.mjs) for the length of the test.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { postgresUrl } from '../support/database';
import { onServer } from '../support/postgres-template';
import { startProcess } from '../../../test-support/processes';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

const root = join(__dirname, '..', '..', '..');

export async function scratchDatabase(logDir: string): Promise<ScratchDatabase> {
  const server = postgresUrl;
  if (server) {
    const name = `core_scratch_${randomBytes(6).toString('hex')}`;
    await onServer(server, (c) => c.query(`create database ${name}`));
    const url = new URL(server);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () =>
        onServer(server, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
    };
  }
  // A module script: the helper is plain ESM. It stays alive (the server itself is a daemon) until told to stop
  // (SIGTERM), then stops the server and removes its files.
  const program = `
    import { startPrivatePostgres } from ${JSON.stringify(join(root, 'scripts', 'prove', 'postgres.mjs'))};
    const pg = await startPrivatePostgres({ database: 'core' });
    const alive = setInterval(() => undefined, 60_000);
    process.on('SIGTERM', () => pg.destroy().finally(() => { clearInterval(alive); process.exit(0); }));
    console.log('URL ' + pg.url);`;
  const { child, exited } = startProcess(process.execPath, ['--input-type=module', '-e', program], {
    cwd: root,
    env: process.env,
    logFile: join(logDir, 'postgres.log'),
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk;
      const match = /^URL (\S+)$/m.exec(seen);
      if (match) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(
        new Error(`the private PostgreSQL server did not start (${code}); set TEST_DATABASE_URL or install postgresql`),
      ),
    );
  });
  return {
    url,
    drop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
