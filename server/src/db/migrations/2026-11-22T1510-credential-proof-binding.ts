// Frozen: never edit a migration that has shipped; add a new one.
// One-time credential proofs are now found by identity hash and password, and carry a binding to the account
// (user id and stored hash) checked when claimed, so a session claims its proof in the statement that reads the
// account. Proofs live a minute: the old ones are simply dropped.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from verified_credentials`.execute(db);
  await sql`alter table verified_credentials add column binding text not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from verified_credentials`.execute(db);
  await sql`alter table verified_credentials drop column binding`.execute(db);
}
