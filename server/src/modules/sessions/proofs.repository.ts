// The proof store: a successful password check leaves a one-time proof for the session that follows (see
// credentials.ts), written with what the attempt gives back.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import { giveBack, type GiveBackValues } from './lockouts.repository';

/** The binding of a proof to an account's id and stored hash, in SQL (written by the probe, compared by the session). */
export const proofBinding = (userId: RawBuilder<unknown>, passwordHash: RawBuilder<unknown>) =>
  sql<string>`encode(sha256(convert_to(${userId}::text || ':' || ${passwordHash}, 'UTF8')), 'base64')`;

type ProofValues = GiveBackValues & { key: string; userId: number; passwordHash: string; expiresAt: string };

/**
 * The proof, and in the same statement what the successful attempt gives back (the giveBack fragment): a probe's
 * success is one round trip.
 */
const storeProofStatement = prepared<never, ProofValues>(
  (_db, p: Placeholders<ProofValues>) => sql<never>`
    with proof as (
      insert into verified_credentials (key, binding, expires_at) values (${p.key}, ${proofBinding(p.userId, p.passwordHash)}, ${p.expiresAt}::timestamptz)
      on conflict (key) do update set binding = excluded.binding, expires_at = excluded.expires_at
    ), ${giveBack(p)}
    select 1`,
);

export async function storeProof(db: Db, values: ProofValues): Promise<void> {
  await storeProofStatement(db, values);
}

/** A password hash made with weaker parameters than today's, replaced by one made with today's. */
export async function replacePasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}
