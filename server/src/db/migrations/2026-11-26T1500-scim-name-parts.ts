// Frozen: never edit a migration that has shipped; add a new one.
// The parts of a person's name as a directory sends them (SCIM name.givenName, name.familyName, name.formatted):
// kept beside the name the platform shows (users.name, still derived from them), so a directory reads back what
// it wrote. Null where the directory sent none; users made before this have none.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column given_name text, add column family_name text, add column name_formatted text`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column given_name, drop column family_name, drop column name_formatted`.execute(db);
}
