// The statement shape every list of the organisation API pages with: its page and its total in one statement.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../db/database';
import type { Statement } from '../db/prepared';

type AnySelect = SelectQueryBuilder<any, any, any>;

/** What a page-and-total statement answers: the page's rows, each carrying the total (`total_count`). */
export type RowWithTotal<Row> = Row & { total_count: string | number };

/**
 * A page and the list's total in one statement: `select p.*, c.total_count from (page) p right join (count) c
 * on true`. The two parts are planned apart (the count from the narrowest index, the page in index order up to
 * its limit), as two statements would be, and the total comes even when the page is empty: then the one row is
 * a filler whose page columns are null, which pageRows drops. A join on nothing but `true` can only be a nested
 * loop over the count's one row, so the page's rows keep their order.
 */
export function pageAndTotal<Row extends { id: number | string }>(
  db: Executor,
  count: AnySelect,
  page: SelectQueryBuilder<any, any, Row>,
): Statement<RowWithTotal<Row>> {
  return db
    .selectFrom(page.as('p'))
    .rightJoin(count.select(sql<string>`count(*)`.as('total_count')).as('c'), (join) => join.onTrue())
    .selectAll('p')
    .select('c.total_count') as unknown as Statement<RowWithTotal<Row>>;
}
