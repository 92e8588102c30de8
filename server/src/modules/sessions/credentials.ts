// Password checks for probes and sign-in. The sign-in flow checks the same password twice (probe, then
// session); a successful probe leaves a one-time proof, valid for a minute, so the session does not pay argon2
// again. The proof is found by an HMAC under the server's secret key of the identity hash and the password, so
// the session can claim it in the same statement that reads the account and starts the session (one round
// trip: see the sessions module's password sign-in statement), and it is bound to the account as it was when the password was verified (a SHA-256
// of the user id and the stored hash the password was checked against): a password changed in between makes it
// worthless. Without the key the proof's key reveals nothing; it is deleted on first use.
import type { Db } from '../../db/database';
import { keyedHash } from '../../security/hashing';
import { hashPassword, needsRehash, verifyPassword } from '../../security/passwords';
import { giveBackValues, type GiveBack } from './lockouts';
import { replacePasswordHash, storeProof } from './proofs.repository';

const proofLifetimeMs = 60_000;

let dummyHash: Promise<string> | null = null;
/** Unknown accounts are verified against this, so they cost the same time as known ones. */
// Stryker disable next-line StringLiteral: equivalent, any text serves; what matters is the work of verifying it
const dummy = () => (dummyHash ??= hashPassword('dummy-password-for-timing-equalisation'));

/** What the password checks use: the database, the secret key of the proofs and the clock. */
export interface CredentialDeps {
  db: Db;
  secretKey: Buffer;
  now: () => Date;
}

export interface Candidate {
  id: number;
  password_hash: string | null;
}

/** Where the proof for these credentials is kept (a keyed hash: without the key it reveals nothing). */
export const proofKey = (services: Pick<CredentialDeps, 'secretKey'>, emailHash: string, password: string) =>
  keyedHash(services.secretKey, `credential-proof\0${emailHash}\0${password}`);

/**
 * True when `password` is the user's. Unknown users and users without a password take the same time and
 * answer false. `leaveProof` (the identity hash) records a one-time proof for the session that follows, and with
 * it, in the same statement, `giveBack`: what the successful attempt gives back (lockouts.ts: succeeded).
 */
export async function checkPassword(
  services: CredentialDeps,
  user: Candidate | undefined,
  password: string,
  options: { leaveProof?: string; giveBack?: GiveBack } = {},
): Promise<boolean> {
  if (!user?.password_hash) {
    await verifyPassword(await dummy(), password);
    return false;
  }
  const ok = await verifyPassword(user.password_hash, password);
  if (!ok) return false;
  let passwordHash = user.password_hash;
  if (needsRehash(passwordHash)) {
    passwordHash = await hashPassword(password);
    await replacePasswordHash(services.db, user.id, passwordHash);
  }
  if (options.leaveProof) {
    const expiresAt = new Date(services.now().getTime() + proofLifetimeMs).toISOString();
    await storeProof(services.db, {
      ...giveBackValues(services.now(), options.giveBack),
      key: proofKey(services, options.leaveProof, password),
      userId: user.id,
      passwordHash,
      expiresAt,
    });
  }
  return true;
}
