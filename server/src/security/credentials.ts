// Password checks for probes and sign-in. The sign-in flow checks the same password twice (probe, then
// session); a successful check leaves a one-time proof, valid for a minute, so the second check does not pay
// argon2 again. The proof is an HMAC under the server's secret key of user, stored hash and password: without
// the key it reveals nothing, it dies with a password change, and it is deleted on first use.
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

const proofKey = (services: Services, user: Candidate, password: string) =>
  keyedHash(services.secretKey, `credential-proof\0${user.id}\0${user.password_hash}\0${password}`);

/**
 * True when `password` is the user's. Unknown users and users without a password take the same time and
 * answer false. `leaveProof` records a one-time proof; `useProof` accepts one instead of argon2.
 */
export async function checkPassword(
  services: Services,
  user: Candidate | undefined,
  password: string,
  options: { leaveProof?: boolean; useProof?: boolean } = {},
): Promise<boolean> {
  if (!user?.password_hash) {
    await verifyPassword(await dummy(), password);
    return false;
  }
  const key = proofKey(services, user, password);
  if (options.useProof) {
    const proof = await services.db
      .deleteFrom('verified_credentials')
      .where('key', '=', key)
      .where('expires_at', '>', services.now())
      .returning('key')
      .executeTakeFirst();
    if (proof) return true;
  }
  const ok = await verifyPassword(user.password_hash, password);
  if (ok && options.leaveProof) {
    await services.db
      .insertInto('verified_credentials')
      .values({ key, expires_at: new Date(services.now().getTime() + proofLifetimeMs) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ expires_at: new Date(services.now().getTime() + proofLifetimeMs) }))
      .execute();
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
