// A private PostgreSQL server for the fault and load checks: initdb + pg_ctl from the machine's PostgreSQL binaries
// into a temp directory, on a free loopback port, so stopping and restarting it touches nothing else (never the
// machine's shared server on 5432). As root, the server runs as the `postgres` system user (initdb refuses root).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep, tempDir, waitFor } from './region.mjs';

function binDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base))
    throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no pg_ctl under /usr/lib/postgresql/*/bin');
  return join(base, versions[0], 'bin');
}

export async function startPrivatePostgres({ database = 'core' } = {}) {
  const bin = binDir();
  const dir = tempDir('private-pg-');
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  let owner = null;
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    owner = { uid: id('-u'), gid: id('-g') };
    chownSync(dir, owner.uid, owner.gid);
  }
  const run = (tool, args, { check = true } = {}) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    if (check && result.status !== 0)
      throw new Error(`${tool} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
    return result;
  };
  /** The same without blocking this process (load keeps flowing while the server stops and starts). */
  const runAsync = (tool, args) =>
    new Promise((resolve, reject) => {
      const command = asRoot ? 'runuser' : join(bin, tool);
      const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
      const child = spawn(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c) => (err += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`${tool} ${args.join(' ')} failed (${code}): ${err}`));
      });
    });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200 -c shared_buffers=128MB`;
  const pg = {
    port,
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    urlFor: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    async start() {
      await runAsync('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
      await waitFor(
        'PostgreSQL to accept connections',
        async () => run('pg_isready', ['-h', '127.0.0.1', '-p', String(port)], { check: false }).status === 0,
        { timeoutMs: 30_000 },
      );
    },
    /** `fast`: clean shutdown, clients disconnected; `immediate`: like a crash (recovery on the next start). */
    async stop(mode = 'fast') {
      await runAsync('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']).catch(() => undefined);
    },
    createDatabase(name) {
      run('psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `create database ${name}`,
      ]);
      return pg.urlFor(name);
    },
    version() {
      return run('postgres', ['--version']).stdout.trim();
    },
    log() {
      try {
        return readFileSync(join(dir, 'server.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async destroy() {
      await pg.stop('fast');
      await sleep(200);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  pg.createDatabase(database);
  return pg;
}
