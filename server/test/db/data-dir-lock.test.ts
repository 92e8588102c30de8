// An embedded database's data directory has one owner process at a time (PGlite itself does not lock it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from '../../src/db/data-dir-lock';
import { openDatabase } from '../../src/db/database';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the data directory lock', () => {
  test('is held while the database is open and released when it closes', async () => {
    const database = await openDatabase({ dataDir: dir });
    expect(readFileSync(join(dir, 'region.lock'), 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(existsSync(join(dir, 'region.lock'))).toBe(false);
    // A new data directory is initialised first (initdb in WebAssembly): slow on a busy machine.
  }, 120_000);

  test('refuses a directory that another live process holds', () => {
    writeFileSync(join(dir, 'region.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid}`);
  });

  test('takes over the lock of a process that has died', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, 'region.lock'), gone);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'region.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
