// Frozen: never edit a migration that has shipped; add a new one.
// A new job wakes idle instances: every statement that inserts jobs sends a NOTIFY on `core_jobs` (delivered on
// commit, once per transaction however many rows), which each instance LISTENs to (jobs/job-listener.ts). A
// statement trigger rather than a notify from the application: no extra round trip, and no insert can forget it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function jobs_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('core_jobs', '');
      return null;
    end $$`.execute(db);
  await sql`create trigger jobs_notify after insert on jobs for each statement execute function jobs_notify()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger jobs_notify on jobs`.execute(db);
  await sql`drop function jobs_notify()`.execute(db);
}
