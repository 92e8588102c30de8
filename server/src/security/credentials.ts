// Password checks for probes and sign-in. The sign-in flow checks the same password twice (probe, then
// session); a successful probe leaves a one-time proof, valid for a minute, so the session does not pay argon2
// again. The proof is found by an HMAC under the server's secret key of the identity hash and the password, so
// the session can claim it in the same statement that reads the account (one round trip), and it is bound to
// the account as it was when the password was verified (an HMAC of the user id and the stored hash): a password
// changed in between makes it worthless. Without the key it reveals nothing; it is deleted on first use.
import { fragment, prepared } from '../db/prepared';
import type { Services } from '../services';
import { keyedHash, safeEqual } from './hashing';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

const proofLifetimeMs = 60_000;

let dummyHash: Promise<string> | null = null;
/** Unknown accounts are verified against this, so they cost the same time as known ones. */
const dummy = () => (dummyHash ??= hashPassword('dummy-password-for-timing-equalisation'));

export interface Candidate {
  id: number;
  password_hash: string | null;
}

/** A proof claimed (and deleted) by `claimProof`. */
export interface ClaimedProof {
  binding: string;
  expires_at: string | Date;
}

const proofKey = (services: Services, emailHash: string, password: string) => keyedHash(services.secretKey, `credential-proof\0${emailHash}\0${password}`);
const proofBinding = (services: Services, user: Candidate) => keyedHash(services.secretKey, `credential-binding\0${user.id}\0${user.password_hash}`);

const claimProofFragment = fragment(1, (db, key) => db.deleteFrom('verified_credentials').where('key', '=', key).returning(['binding', 'expires_at']));

/** Deletes the proof for these credentials, answering it (for `checkPassword`'s `proof`); rides along in Throttle.guard. */
export const claimProof = (services: Services, emailHash: string, password: string) => claimProofFragment.with(proofKey(services, emailHash, password));

const storeProof = prepared<never, [key: string, binding: string, expiresAt: string]>(3, (db, key, binding, expiresAt) =>
  db
    .insertInto('verified_credentials')
    .values({ key, binding, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ binding, expires_at: expiresAt })),
);

/**
 * True when `password` is the user's. Unknown users and users without a password take the same time and
 * answer false. `leaveProof` (the identity hash) records a one-time proof; a valid `proof` is accepted instead
 * of argon2.
 */
export async function checkPassword(
  services: Services,
  user: Candidate | undefined,
  password: string,
  options: { leaveProof?: string; proof?: ClaimedProof | null } = {},
): Promise<boolean> {
  if (!user?.password_hash) {
    await verifyPassword(await dummy(), password);
    return false;
  }
  const { proof } = options;
  if (proof && new Date(proof.expires_at) > services.now() && safeEqual(proof.binding, proofBinding(services, user))) return true;
  const ok = await verifyPassword(user.password_hash, password);
  if (ok && options.leaveProof) {
    const expiresAt = new Date(services.now().getTime() + proofLifetimeMs).toISOString();
    await storeProof(services.db, proofKey(services, options.leaveProof, password), proofBinding(services, user), expiresAt);
  }
  if (ok && needsRehash(user.password_hash)) {
    await services.db.updateTable('users').set({ password_hash: await hashPassword(password) }).where('id', '=', user.id).execute();
  }
  return ok;
}

/** Expired proofs are removed on the way; nothing needs them after a minute. */
export async function purgeExpiredProofs(services: Services): Promise<void> {
  await services.db.deleteFrom('verified_credentials').where('expires_at', '<=', services.now()).execute();
}
