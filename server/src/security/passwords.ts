// argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1). The native binding hashes on libuv's thread pool,
// so a login never blocks the event loop. At most one hash per core runs at a time: more would only take turns
// on the same cores while each holds its 19 MiB and evicts the others' from the caches (more CPU per hash), and
// would keep the thread pool from the rest of the server's work. Logins beyond that wait in line, first come
// first served.
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';

export const passwordHashOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A first-come-first-served gate for `limit` tasks at a time. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const hashing = new Gate(Math.max(1, availableParallelism()));

export const hashPassword = (password: string): Promise<string> =>
  hashing.run(() => argon2.hash(password, passwordHashOptions));

export const verifyPassword = async (hash: string, password: string): Promise<boolean> => {
  try {
    return await hashing.run(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
};

/** How every hash made with today's parameters begins (the PHC string as argon2 writes it; a test checks). */
export const currentHashPrefix = `$argon2id$v=19$m=${passwordHashOptions.memoryCost},p=${passwordHashOptions.parallelism},t=${passwordHashOptions.timeCost}$`;

/**
 * True when a stored hash was made with other parameters than today's (rehash after a successful login). Nearly
 * every hash begins with today's parameters, which a string comparison confirms; the rest are parsed.
 */
export const needsRehash = (hash: string): boolean =>
  !hash.startsWith(currentHashPrefix) && argon2.needsRehash(hash, passwordHashOptions);
