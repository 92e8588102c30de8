// Frozen: never edit a migration that has shipped; add a new one.
// A two-character search fetched every group holding the pair by primary key (some hundreds of heap reads in a
// tenant of 10,000 groups, 2-4 ms) only to read its tenant, folded name and type. Each pair row now carries
// them, ordered as the list is: the search, its count and its page are one index-only range scan.
import { sql, type Kysely } from 'kysely';
import * as pairRowsWithoutColumns from './2026-11-22T1520-group-name-bigrams';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger groups_name_bigrams on groups`.execute(db);
  await sql`drop table group_name_bigrams`.execute(db);
  await sql`create table group_name_bigrams (
    tenant_id bigint not null,
    gram text not null,
    name_folded text not null,
    group_id bigint not null references groups (id) on delete cascade,
    type text not null,
    primary key (tenant_id, gram, name_folded, group_id) include (type)
  )`.execute(db);
  await sql`create index group_name_bigrams_group_idx on group_name_bigrams (group_id)`.execute(db);
  await sql`create or replace function groups_name_bigrams() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        if new.name_folded is not distinct from old.name_folded and new.type is not distinct from old.type
          and new.tenant_id is not distinct from old.tenant_id then return null; end if;
        delete from group_name_bigrams where group_id = new.id;
      end if;
      insert into group_name_bigrams (tenant_id, gram, name_folded, group_id, type)
        select distinct new.tenant_id, substr(new.name_folded, i, 2), new.name_folded, new.id, new.type
        from generate_series(1, char_length(new.name_folded) - 1) as i
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger groups_name_bigrams after insert or update of name, type, tenant_id on groups for each row execute function groups_name_bigrams()`.execute(
    db,
  );
  await sql`insert into group_name_bigrams (tenant_id, gram, name_folded, group_id, type)
    select distinct g.tenant_id, substr(g.name_folded, i, 2), g.name_folded, g.id, g.type
    from groups g, generate_series(1, char_length(g.name_folded) - 1) as i
    on conflict do nothing`.execute(db);
}

/** Back to the pair rows of 2026-11-22T1520 (gram and group only), rebuilt by that migration's own step. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger groups_name_bigrams on groups`.execute(db);
  await sql`drop function groups_name_bigrams()`.execute(db);
  await sql`drop table group_name_bigrams`.execute(db);
  await pairRowsWithoutColumns.up(db);
}
