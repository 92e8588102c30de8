// argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1). The native binding hashes on libuv's thread pool,
// so a login never blocks the event loop.
import argon2 from 'argon2';

export const passwordHashOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, passwordHashOptions);

export const verifyPassword = async (hash: string, password: string): Promise<boolean> => {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
};

/** True when a stored hash was made with other parameters than today's (rehash after a successful login). */
export const needsRehash = (hash: string): boolean => argon2.needsRehash(hash, passwordHashOptions);
