// The event loop before the hashing: argon2 hashes on libuv's thread pool, and on a machine with few cores a wave of
// sign-ins would otherwise take CPU time from the event loop, which answers every signed-in user. Linux keeps a
// nice value per thread, and the pool's threads name themselves `libuv-worker`: raising their nice value gives the
// event loop the CPU first whenever both want it, and the pool all the CPU the loop leaves idle. The pool also runs
// file-system calls, DNS lookups and zlib work, which wait the same way; none of them is on a signed-in user's path.
// Where threads cannot be listed (not Linux), nothing changes.
import { readdir, readFile, stat } from 'node:fs/promises';
import { setPriority } from 'node:os';

const tasks = '/proc/self/task';

/** The thread ids of libuv's pool (started at the pool's first use, all at once, never more). */
export async function threadPoolThreads(): Promise<number[]> {
  // Any pool work starts the pool's threads.
  await stat('.');
  const ids = await readdir(tasks).catch(() => [] as string[]);
  const named = await Promise.all(
    ids.map(async (id) =>
      (await readFile(`${tasks}/${id}/comm`, 'utf8').catch(() => '')).trim() === 'libuv-worker' ? Number(id) : null,
    ),
  );
  return named.filter((id): id is number => id !== null);
}

/** Lowers the pool threads' priority to `nice` (1 to 19; 0 leaves it); the number of threads changed. */
export async function lowerThreadPoolPriority(nice: number): Promise<number> {
  if (nice <= 0) return 0;
  let changed = 0;
  for (const id of await threadPoolThreads()) {
    try {
      setPriority(id, nice);
      changed++;
    } catch {
      // A thread that cannot be changed keeps its priority; the others still yield.
    }
  }
  return changed;
}

/** A thread's nice value, from /proc (field 19 of its stat line); null where it cannot be read. */
export async function niceOf(threadId: number): Promise<number | null> {
  const line = await readFile(`${tasks}/${threadId}/stat`, 'utf8').catch(() => null);
  if (line === null) return null;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16]);
}
