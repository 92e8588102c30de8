// An embedded database's data directory belongs to one process at a time. PGlite takes no lock of its own: a
// second process opening the same directory (an operator command beside `npm start`, say) would corrupt it. The
// lock is a file holding the owner's pid; a file left by a process that has died is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The database in ${dataDir} is in use by process ${pid} (a running region?). Stop it first, or use DATABASE_URL with PostgreSQL.`,
    );
    this.name = 'DataDirInUseError';
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the directory's lock for this process; answers the release. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'region.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner))
        throw new DataDirInUseError(dataDir, owner);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
