// Password checks for probes and sign-in. The sign-in flow checks the same password twice (probe, then
// session); a successful probe leaves a one-time proof, valid for a minute, so the session does not pay argon2
// again. The proof is found by an HMAC under the server's secret key of the identity hash and the password, so
// the session can claim it in the same statement that reads the account and starts the session (one round
// trip: see sessionOnProof), and it is bound to the account as it was when the password was verified (a SHA-256
// of the user id and the stored hash the password was checked against): a password changed in between makes it
// worthless. Without the key the proof's key reveals nothing; it is deleted on first use.
import { sql, type RawBuilder } from 'kysely';
import { fragment, prepared } from '../db/prepared';
import type { Services } from '../services';
import { keyedHash } from './hashing';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

const proofLifetimeMs = 60_000;

let dummyHash: Promise<string> | null = null;
/** Unknown accounts are verified against this, so they cost the same time as known ones. */
const dummy = () => (dummyHash ??= hashPassword('dummy-password-for-timing-equalisation'));

export interface Candidate {
  id: number;
  password_hash: string | null;
}

const proofKey = (services: Services, emailHash: string, password: string) => keyedHash(services.secretKey, `credential-proof\0${emailHash}\0${password}`);

/** The binding of a proof to an account's id and stored hash, in SQL (written by the probe, compared by the session). */
export const proofBinding = (userId: RawBuilder<unknown>, passwordHash: RawBuilder<unknown>) =>
  sql<string>`encode(sha256(convert_to(${userId}::text || ':' || ${passwordHash}, 'UTF8')), 'base64')`;

const claimProofFragment = fragment(1, (db, key) => db.deleteFrom('verified_credentials').where('key', '=', key).returning(['binding', 'expires_at']));

/** Deletes the proof for these credentials, answering it; rides along in Throttle.guard, read by sessionOnProof. */
export const claimProof = (services: Services, emailHash: string, password: string) => claimProofFragment.with(proofKey(services, emailHash, password));

const storeProof = prepared<never, [key: string, userId: number, passwordHash: string, expiresAt: string]>(4, (db, key, userId, passwordHash, expiresAt) =>
  db
    .insertInto('verified_credentials')
    .values({ key, binding: proofBinding(userId, passwordHash), expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ binding: proofBinding(userId, passwordHash), expires_at: expiresAt })),
);

/**
 * True when `password` is the user's. Unknown users and users without a password take the same time and
 * answer false. `leaveProof` (the identity hash) records a one-time proof for the session that follows.
 */
export async function checkPassword(services: Services, user: Candidate | undefined, password: string, options: { leaveProof?: string } = {}): Promise<boolean> {
  if (!user?.password_hash) {
    await verifyPassword(await dummy(), password);
    return false;
  }
  const ok = await verifyPassword(user.password_hash, password);
  if (!ok) return false;
  let passwordHash = user.password_hash;
  if (needsRehash(passwordHash)) {
    passwordHash = await hashPassword(password);
    await services.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
  }
  if (options.leaveProof) {
    const expiresAt = new Date(services.now().getTime() + proofLifetimeMs).toISOString();
    await storeProof(services.db, proofKey(services, options.leaveProof, password), user.id, passwordHash, expiresAt);
  }
  return true;
}

/** Expired proofs are removed on the way; nothing needs them after a minute. */
export async function purgeExpiredProofs(services: Services): Promise<void> {
  await services.db.deleteFrom('verified_credentials').where('expires_at', '<=', services.now()).execute();
}
