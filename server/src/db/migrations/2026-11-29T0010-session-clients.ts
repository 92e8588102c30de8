// Frozen: never edit a migration that has shipped; add a new one.
// Where a session signed in from, as the account page shows it (issue 44): the user agent its sign-in sent (cut to
// 256 characters; read as a coarse device when listed) and the coarse network of its address (IPv4 /24, IPv6 /48,
// never the full address). Null for sessions started before this. A user's sessions are found by sessions_user_idx.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions add column user_agent text, add column network text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions drop column user_agent, drop column network`.execute(db);
}
