// Frozen: never edit a migration that has shipped; add a new one.
// Case-insensitive substring search on group names (`name[match]`) uses a trigram index instead of a scan.
// pg_trgm is a trusted extension (PostgreSQL 13+), so the database owner may create it; PGlite loads it. It lives
// in `public` whatever the search_path, so schemas of one database (tests) share it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  await sql`create index if not exists groups_name_trgm_idx on groups using gin (name public.gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists groups_name_trgm_idx`.execute(db);
}
