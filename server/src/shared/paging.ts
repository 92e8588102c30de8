// Page parameters and page answers shared by every list of the organisation API (spec section 5:
// limit 0–100 default 10, offset default 0, and an exact totalCount).
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../db/database';
import type { Statement } from '../db/prepared';

type AnySelect = SelectQueryBuilder<any, any, any>;

export interface PageParams {
  limit: number;
  offset: number;
}

export interface Page<T> {
  data: T[];
  pagination: { totalCount: number; offset: number; limit: number };
}

export const defaultLimit = 10;

/** The validator has already checked the bounds and applied the defaults; this only narrows the type. */
export function pageParams(query: { limit?: number; offset?: number } | undefined): PageParams {
  return { limit: Number(query?.limit ?? defaultLimit), offset: Number(query?.offset ?? 0) };
}

export function pageOf<T>(data: T[], totalCount: number | string | bigint, params: PageParams): Page<T> {
  return { data, pagination: { totalCount: Number(totalCount), offset: params.offset, limit: params.limit } };
}

/** An ILIKE pattern matching `text` anywhere, with `%`, `_` and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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

/** The page's rows (the empty page's filler dropped, the total taken off each row) and the total. */
export function pageRows<Row extends { id: number | string | null }>(
  rows: RowWithTotal<Row>[],
): { rows: Row[]; total: number } {
  const total = Number(rows[0]?.total_count ?? 0);
  if (rows[0]?.id === null) return { rows: [], total };
  return { rows: rows.map(({ total_count: _total, ...row }) => row as unknown as Row), total };
}
