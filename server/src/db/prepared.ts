// Statements on the sign-in path, built once. Kysely builds every query as a tree of frozen nodes and compiles
// it to SQL text on each call: for a login's statements that was a tenth of the main thread's CPU, for texts
// that never change. A prepared statement is written with Kysely as usual, but with placeholders
// (`$1`…`$n`) where its values go; it is compiled on first use and each run sends the same text with fresh
// values, exactly what Kysely would have sent. The parameters stay parameters: nothing is ever interpolated.
import { CompiledQuery, sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Executor } from './database';

/** `$n` in the compiled text; Kysely accepts it wherever a value expression goes. */
export type Placeholder = RawBuilder<any>;

export const placeholder = (n: number): Placeholder => sql.raw(`$${n}`);

/** A query builder or a raw `sql` template (which compiles against a database). */
export interface Statement<Row = unknown> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<Row>;
}

/** Compiles `query` and checks that every value in it is a placeholder (a literal value would shift their numbers). */
export function compileOnce(db: Executor, query: Statement, arity: number): string {
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0) throw new Error(`a prepared statement must take every value as a placeholder: ${compiled.sql}`);
  for (let n = 1; n <= arity; n++) {
    if (!new RegExp(`\\$${n}(?!\\d)`).test(compiled.sql)) throw new Error(`a prepared statement does not use $${n}: ${compiled.sql}`);
  }
  return compiled.sql;
}

/**
 * A statement with `arity` values: `build` receives one placeholder per value. Run it with
 * `statement(db, ...values)`; it answers the rows.
 */
export function prepared<Row, Values extends unknown[]>(arity: Values['length'], build: (db: Executor, ...params: Placeholder[]) => Statement<Row>) {
  let text: string | undefined;
  return async (db: Executor, ...values: Values): Promise<Row[]> => {
    text ??= compileOnce(db, build(db, ...Array.from({ length: arity }, (_, i) => placeholder(i + 1))), arity);
    return (await db.executeQuery(CompiledQuery.raw(text, values) as CompiledQuery<Row>)).rows;
  };
}

/** A part of a larger prepared statement (a query riding along in Throttle.guard, say), taking `arity` values. */
export interface Fragment {
  readonly id: number;
  readonly arity: number;
  build(db: Executor, ...params: Placeholder[]): Statement;
  /**
   * Named queries the fragment needs before its own, with the same placeholders (in a WITH clause: writes that
   * depend on one another must each be a query of their own there).
   */
  before?(db: Executor, ...params: Placeholder[]): [name: string, query: Statement][];
  /** The fragment with the values for this run. */
  with(...values: unknown[]): Bound;
}

export interface Bound {
  readonly fragment: Fragment;
  readonly values: unknown[];
}

let fragments = 0;

export function fragment(arity: number, build: Fragment['build'], before?: Fragment['before']): Fragment {
  const made: Fragment = {
    id: ++fragments,
    arity,
    build,
    before,
    with: (...values) => {
      if (values.length !== arity) throw new Error(`the fragment takes ${arity} values, not ${values.length}`);
      return { fragment: made, values };
    },
  };
  return made;
}
