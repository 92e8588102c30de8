// Frozen: never edit a migration that has shipped; add a new one.
// One refresh chain per session: the session row holds its current refresh token's hash and its immediate
// predecessor's (with when it was superseded), so a rotation is one conditional update of one row; older
// tokens are kept in refresh_tokens only to recognise their reuse (found by primary key). Familiar sign-in
// sources: a keyed hash of each client address a user has signed in from, per identity hash, so failures from
// elsewhere never lock the rightful user out of their usual place.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions add column refresh_token_hash text, add column previous_refresh_token_hash text, add column previous_superseded_at timestamptz`.execute(
    db,
  );
  await sql`update sessions s set refresh_token_hash = t.token_hash
    from (select distinct on (session_id) session_id, token_hash from refresh_tokens where superseded_at is null order by session_id, created_at desc) t
    where t.session_id = s.id`.execute(db);
  // Whatever is left in refresh_tokens is history: superseded (a second live token of a session is retired now).
  await sql`update refresh_tokens t set superseded_at = now() where superseded_at is null
    and not exists (select 1 from sessions s where s.refresh_token_hash = t.token_hash)`.execute(db);
  await sql`delete from refresh_tokens t where exists (select 1 from sessions s where s.refresh_token_hash = t.token_hash)`.execute(
    db,
  );
  await sql`create unique index sessions_refresh_token_hash_idx on sessions (refresh_token_hash)`.execute(db);
  await sql`create index refresh_tokens_session_superseded_idx on refresh_tokens (session_id, superseded_at)`.execute(
    db,
  );
  await sql`create table sign_in_sources (
      email_hash text not null,
      source_hash text not null,
      last_seen_at timestamptz not null,
      primary key (email_hash, source_hash))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sign_in_sources`.execute(db);
  await sql`drop index refresh_tokens_session_superseded_idx`.execute(db);
  await sql`insert into refresh_tokens (token_hash, session_id) select refresh_token_hash, id from sessions where refresh_token_hash is not null on conflict do nothing`.execute(
    db,
  );
  await sql`alter table sessions drop column refresh_token_hash, drop column previous_refresh_token_hash, drop column previous_superseded_at`.execute(
    db,
  );
}
