// Frozen: never edit a migration that has shipped; add a new one.
// `name[match]` with two characters (what search-as-you-type sends after the second keystroke) cannot use the
// trigram index, and scanning the tenant's names costs milliseconds in a tenant of 10,000 groups. Every pair of
// adjacent characters of each folded name is kept here (a trigger keeps it in step with renames), so such a
// search reads only the groups that contain the pair.
// Also: every member added or removed rewrites its group's row (members_count). With room left on each page
// that update stays on the page and touches no index (a HOT update); on full pages each one added an entry to
// every index of groups, and 100,000 memberships left the name index four times its size.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table groups set (fillfactor = 80)`.execute(db);
  await sql`create table group_name_bigrams (
    gram text not null,
    group_id bigint not null references groups (id) on delete cascade,
    primary key (gram, group_id)
  )`.execute(db);
  await sql`create index group_name_bigrams_group_idx on group_name_bigrams (group_id)`.execute(db);
  await sql`create function groups_name_bigrams() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        if new.name_folded is not distinct from old.name_folded then return null; end if;
        delete from group_name_bigrams where group_id = new.id;
      end if;
      insert into group_name_bigrams (gram, group_id)
        select distinct substr(new.name_folded, i, 2), new.id from generate_series(1, char_length(new.name_folded) - 1) as i
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger groups_name_bigrams after insert or update of name on groups for each row execute function groups_name_bigrams()`.execute(
    db,
  );
  await sql`insert into group_name_bigrams (gram, group_id)
    select distinct substr(g.name_folded, i, 2), g.id from groups g, generate_series(1, char_length(g.name_folded) - 1) as i
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists groups_name_bigrams on groups`.execute(db);
  await sql`drop function if exists groups_name_bigrams()`.execute(db);
  await sql`drop table if exists group_name_bigrams`.execute(db);
  await sql`alter table groups reset (fillfactor)`.execute(db);
}
