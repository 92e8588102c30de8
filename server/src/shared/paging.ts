// Page parameters and page answers shared by every list of the organisation API (spec section 5:
// limit 0–100 default 10, offset default 0, and an exact totalCount).
import type { RowWithTotal } from './paging.repository';

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

export { pageAndTotal, type RowWithTotal } from './paging.repository';

/** The page's rows (the empty page's filler dropped, the total taken off each row) and the total. */
export function pageRows<Row extends { id: number | string | null }>(
  rows: RowWithTotal<Row>[],
): { rows: Row[]; total: number } {
  const total = Number(rows[0]?.total_count ?? 0);
  if (rows[0]?.id === null) return { rows: [], total };
  return { rows: rows.map(({ total_count: _total, ...row }) => row as unknown as Row), total };
}
