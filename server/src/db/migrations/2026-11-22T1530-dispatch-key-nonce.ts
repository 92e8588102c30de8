// Frozen: never edit a migration that has shipped; add a new one.
// Providers drop a repeated idempotency key for a day, so a key must never be used again for another dispatch.
// Dispatch ids alone can come round again (a database restored from a backup, a development reset): each row
// now carries random characters that go into its key, the same on every retry of that dispatch.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table dispatches add column key_nonce text not null default substr(md5(random()::text || clock_timestamp()::text), 1, 12)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table dispatches drop column key_nonce`.execute(db);
}
