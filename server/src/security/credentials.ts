// Password checks for probes and sign-in. The sign-in flow checks the same password twice (probe, then
// session); a successful probe leaves a one-time proof, valid for a minute, so the session does not pay argon2
// again. The proof is found by an HMAC under the server's secret key of the identity hash and the password, so
// the session can claim it in the same statement that reads the account and starts the session (one round
// trip: see the sessions module's password sign-in statement), and it is bound to the account as it was when the password was verified (a SHA-256
// of the user id and the stored hash the password was checked against): a password changed in between makes it
// worthless. Without the key the proof's key reveals nothing; it is deleted on first use.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { prepared } from '../db/prepared';
import { keyedHash } from './hashing';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

const proofLifetimeMs = 60_000;

let dummyHash: Promise<string> | null = null;
/** Unknown accounts are verified against this, so they cost the same time as known ones. */
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

/** The binding of a proof to an account's id and stored hash, in SQL (written by the probe, compared by the session). */
export const proofBinding = (userId: RawBuilder<unknown>, passwordHash: RawBuilder<unknown>) =>
  sql<string>`encode(sha256(convert_to(${userId}::text || ':' || ${passwordHash}, 'UTF8')), 'base64')`;

/**
 * The proof, and in the same statement what the successful attempt gives back to the throttles (the identity's
 * failures cleared, the address's reservation refunded; see Throttle.refund): a probe's success is one round trip.
 */
const storeProof = prepared<
  never,
  {
    key: string;
    userId: number;
    passwordHash: string;
    expiresAt: string;
    clear: string[];
    refund: string[];
    free: number[];
  }
>(
  (_db, p) => sql<never>`
    with proof as (
      insert into verified_credentials (key, binding, expires_at) values (${p.key}, ${proofBinding(p.userId, p.passwordHash)}, ${p.expiresAt}::timestamptz)
      on conflict (key) do update set binding = excluded.binding, expires_at = excluded.expires_at
    ), cleared as (
      delete from throttles where key = any(${p.clear}::text[])
    )
    update throttles t set count = greatest(t.count - 1, 0), blocked_until = case when t.count - 1 <= r.free then null else t.blocked_until end
    from unnest(${p.refund}::text[], ${p.free}::int[]) as r (key, free)
    where t.key = r.key`,
);

/** What a successful attempt gives back: keys to clear, keys to refund one attempt with their free failures. */
export interface Refund {
  clear: string[];
  refund: [key: string, freeFailures: number][];
}

/**
 * True when `password` is the user's. Unknown users and users without a password take the same time and
 * answer false. `leaveProof` (the identity hash) records a one-time proof for the session that follows, and with
 * it, in the same statement, `refund`: what the successful attempt gives back to the throttles.
 */
export async function checkPassword(
  services: CredentialDeps,
  user: Candidate | undefined,
  password: string,
  options: { leaveProof?: string; refund?: Refund } = {},
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
    await services.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
  }
  if (options.leaveProof) {
    const expiresAt = new Date(services.now().getTime() + proofLifetimeMs).toISOString();
    const refund = options.refund ?? { clear: [], refund: [] };
    await storeProof(services.db, {
      key: proofKey(services, options.leaveProof, password),
      userId: user.id,
      passwordHash,
      expiresAt,
      clear: refund.clear,
      refund: refund.refund.map(([key]) => key),
      free: refund.refund.map(([, free]) => free),
    });
  }
  return true;
}
