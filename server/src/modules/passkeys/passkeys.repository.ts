import { sql } from 'kysely';
import type { Executor } from '../../db/database';

export type PasskeyEventKind = 'added' | 'removed' | 'suspicious';

const listed = ['id', 'name', 'aaguid', 'created_at', 'last_used_at', 'suspicious_at'] as const;

export const countPasskeys = async (db: Executor, userId: number): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const listPasskeyRows = (db: Executor, userId: number, page: { limit: number; offset: number }) =>
  db
    .selectFrom('passkeys')
    .select(listed)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** The credentials of a user's passkeys that still sign in (for excludeCredentials and allowCredentials). */
export const credentialsOfUser = (db: Executor, userId: number, options: { usableOnly?: boolean } = {}) =>
  db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', userId)
    .$if(options.usableOnly === true, (q) => q.where('suspicious_at', 'is', null))
    .orderBy('created_at', 'desc')
    .execute();

export const findOwnPasskey = (db: Executor, userId: number, id: string) =>
  db.selectFrom('passkeys').select(listed).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

/** The passkey of a credential id with its user's state, locked for the sign-in that uses it. */
export const findPasskeyForSignIn = (db: Executor, credentialId: string) =>
  db
    .selectFrom('passkeys as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.user_id',
      'p.credential_id',
      'p.public_key',
      'p.counter',
      'p.transports',
      'p.suspicious_at',
      'u.email_hash',
      'u.deactivated_at',
    ])
    .where('p.credential_id', '=', credentialId)
    .forUpdate('p')
    .executeTakeFirst();

export interface NewPasskey {
  id: string;
  user_id: number;
  credential_id: string;
  public_key: Uint8Array;
  counter: number;
  transports: string[];
  aaguid: string;
  name: string;
  device_type: string;
  backed_up: boolean;
  /** The keyed hash of the removal link's token, and when the link ends. */
  removal_token_hash: string;
  removal_expires_at: Date;
}

export async function insertPasskey(db: Executor, row: NewPasskey): Promise<{ id: string } | undefined> {
  return (
    db
      .insertInto('passkeys')
      // The row types read bytea as a Buffer; the verified key arrives as a Uint8Array.
      .values({ ...row, public_key: Buffer.from(row.public_key) })
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .returning('id')
      .executeTakeFirst()
  );
}

export const renamePasskey = (db: Executor, userId: number, id: string, name: string) =>
  db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(listed)
    .executeTakeFirst();

export const deletePasskeyRow = (db: Executor, userId: number, id: string) =>
  db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(['id', 'name'])
    .executeTakeFirst();

/** A verified use: the counter seen, when, and whether the credential is backed up (synced) now. */
export const notePasskeyUse = (db: Executor, id: string, use: { counter: number; backedUp: boolean; now: Date }) =>
  db
    .updateTable('passkeys')
    .set({ counter: use.counter, backed_up: use.backedUp, last_used_at: use.now })
    .where('id', '=', id)
    .execute();

export const markPasskeySuspicious = (db: Executor, id: string, now: Date) =>
  db.updateTable('passkeys').set({ suspicious_at: now }).where('id', '=', id).execute();

export const insertPasskeyEvent = (
  db: Executor,
  event: { userId: number; passkeyId: string; kind: PasskeyEventKind; sessionId?: string; sourceHash?: string },
) =>
  db
    .insertInto('passkey_events')
    .values({
      user_id: event.userId,
      passkey_id: event.passkeyId,
      kind: event.kind,
      session_id: event.sessionId ?? null,
      source_hash: event.sourceHash ?? null,
    })
    .execute();

export const insertChallenge = (
  db: Executor,
  row: { challenge: string; purpose: 'registration' | 'authentication'; userId: number | null; expiresAt: Date },
) =>
  db
    .insertInto('passkey_challenges')
    .values({ challenge: row.challenge, purpose: row.purpose, user_id: row.userId, expires_at: row.expiresAt })
    .execute();

/**
 * Uses up the challenges among `challenges` of this purpose (and user, for a registration), whatever happens
 * next: answers those that were still live.
 */
export async function consumeChallenges(
  db: Executor,
  where: { challenges: string[]; purpose: 'registration' | 'authentication'; userId?: number; now: Date },
): Promise<string[]> {
  const rows = await db
    .deleteFrom('passkey_challenges')
    .where('challenge', 'in', where.challenges)
    .where('purpose', '=', where.purpose)
    .$if(where.userId !== undefined, (q) => q.where('user_id', '=', where.userId!))
    .returning(['challenge', 'expires_at'])
    .execute();
  return rows.filter((row) => row.expires_at > where.now).map((row) => row.challenge);
}

/** Locks the user's row, so concurrent registrations count the user's passkeys one after another. */
export const lockUser = (db: Executor, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'name', sql<boolean>`deactivated_at is not null`.as('deactivated')])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();

/** The name and address a new passkey is registered under. */
export const findPasskeyHolder = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirst();

/** The address a passkey notice goes to. */
export const findHolderEmail = (db: Executor, userId: number) =>
  db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();

/** A new passkey challenge for the session's second factor; the one still open, if any, is withdrawn. */
export async function replacePasskeyChallenge(
  db: Executor,
  c: { id: string; sessionId: string; challenge: string; validUntil: Date; now: Date },
): Promise<void> {
  await db
    .updateTable('challenges')
    .set({ consumed_at: c.now })
    .where('session_id', '=', c.sessionId)
    .where('kind', '=', 'passkey')
    .where('consumed_at', 'is', null)
    .execute();
  await db
    .insertInto('challenges')
    .values({
      id: c.id,
      session_id: c.sessionId,
      kind: 'passkey',
      secret_hash: c.challenge,
      sent_to: null,
      valid_until: c.validUntil,
      resend_unavailable_until: c.now,
    })
    .execute();
}

/** The session's open passkey challenge, held for the answer. */
export async function openPasskeyChallengeForUpdate(db: Executor, sessionId: string) {
  return db
    .selectFrom('challenges')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', 'passkey')
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The challenge is spent, whatever its answer said. */
export async function spendChallenge(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('challenges').set({ consumed_at: now }).where('id', '=', id).execute();
}

/** The passkey of a live removal link, deleted (so the link works once): its id, user and name, or nothing. */
export const deletePasskeyByRemovalToken = (db: Executor, tokenHash: string, now: Date) =>
  db
    .deleteFrom('passkeys')
    .where('removal_token_hash', '=', tokenHash)
    .where('removal_expires_at', '>', now)
    .returning(['id', 'user_id', 'name'])
    .executeTakeFirst();
