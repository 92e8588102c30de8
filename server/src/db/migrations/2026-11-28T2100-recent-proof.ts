// Frozen: never edit a migration that has shipped; add a new one.
// When a session last proved the account's credentials (a password, a passkey, a one-time code or single sign-on,
// at sign-in or on re-authentication; never a refresh): changing a factor asks for a recent proof. Null for
// sessions started before this, which must prove themselves again before changing a factor.
// A passkey's removal link (sent with the notice of its addition): only the link token's keyed hash is stored, with
// the link's end; the removal deletes the passkey, so the link works once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions add column proven_at timestamptz`.execute(db);
  await sql`alter table passkeys add column removal_token_hash text, add column removal_expires_at timestamptz`.execute(
    db,
  );
  await sql`create unique index passkeys_removal_token_idx on passkeys (removal_token_hash) where removal_token_hash is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index passkeys_removal_token_idx`.execute(db);
  await sql`alter table passkeys drop column removal_token_hash, drop column removal_expires_at`.execute(db);
  await sql`alter table sessions drop column proven_at`.execute(db);
}
