// argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1). The native binding hashes on libuv's thread pool,
// so a login never blocks the event loop. At most `concurrency` hashes run at a time (one core fewer than the
// machine has, at least one: the event loop keeps a core for signed-in users while a wave of sign-ins arrives; more
// would only take turns on the same cores while each holds its 19 MiB and evicts the others' from the caches).
// Hashes beyond that wait in line, first come first served. The line is bounded by the HTTP door
// (http/admission.ts), which admits no more argon2-bound requests than the pool and HASH_QUEUE hold and refuses the
// rest at once; the gate's own bound (256 waiting) is the last guard for memory, refused as 503
// SERVICE_UNAVAILABLE with Retry-After.
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { ApiError } from '../errors';

export const passwordHashOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The pool's default size: one core fewer than the machine has, at least one. */
export const defaultHashConcurrency = (): number => Math.max(1, availableParallelism() - 1);

/** A first-come-first-served gate for `limit` tasks at a time, with at most `maxWaiting` in line. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    readonly limit: number,
    readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** Tasks running or waiting now. */
  get held(): number {
    return this.running + this.waiting.length;
  }

  /** True when a new task would be refused. */
  get full(): boolean {
    return this.running >= this.limit && this.waiting.length >= this.maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting)
        throw new ApiError('SERVICE_UNAVAILABLE', {
          message: 'The service is busy; try again in a moment',
          unavailableUntil: new Date(Date.now() + 1_000),
        });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const lineBound = 256;
let hashing = new Gate(defaultHashConcurrency(), lineBound);

/** Sizes the hashing pool (the server does at start, from HASH_CONCURRENCY). */
export function configureHashing(concurrency: number): Gate {
  if (concurrency !== hashing.limit) hashing = new Gate(concurrency, lineBound);
  return hashing;
}

/** The gate in use now (read by the HTTP door, which refuses argon2-bound requests while it is full). */
export const hashingGate = (): Gate => hashing;

export const hashPassword = (password: string): Promise<string> =>
  hashing.run(() => argon2.hash(password, passwordHashOptions));

export const verifyPassword = async (hash: string, password: string): Promise<boolean> => {
  try {
    return await hashing.run(() => argon2.verify(hash, password));
  } catch (error) {
    // A full line is a refusal, not a wrong password.
    if (error instanceof ApiError) throw error;
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
