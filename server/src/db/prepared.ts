// Hot statements, built once and sent as named prepared statements. Kysely builds every query as a tree of
// frozen nodes and compiles it to SQL text on each call, and an unnamed statement makes PostgreSQL parse and
// plan it again on every execution: for texts that never change. A prepared statement is written with Kysely as
// usual, with placeholders where its values go; it is compiled on first use (once per shape, for statements whose
// text depends on a few choices such as the filters given), and each run sends the same text with fresh values.
// The drivers (database.ts for PostgreSQL, pglite-dialect.ts for PGlite) send every text registered here under
// its name, so the database parses it once per connection and can keep its plan. The parameters stay
// parameters: nothing is ever interpolated.
import { CompiledQuery, sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Executor } from './executor';

/** `$n` in the compiled text; Kysely accepts it wherever a value expression goes. */
export type Placeholder = RawBuilder<any>;

export const placeholder = (n: number): Placeholder => sql.raw(`$${n}`);

/** A query builder or a raw `sql` template (which compiles against a database). */
export interface Statement<Row = unknown> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<Row>;
}

export interface PrepareOptions {
  /**
   * 'custom': compiled once here, but sent unnamed, so the database plans it with this run's values every time.
   * For a statement whose best plan depends on a value (a name pattern's length and how rare it is): a named
   * statement may switch to one generic plan for all values.
   */
  plan?: 'custom';
}

/** Registered texts and the names they are sent under; the same text is the same statement everywhere. */
const names = new Map<string, string>();

/** Statements the drivers have sent to the database (each one round trip), for the benchmark's figures. */
export const roundTrips = { count: 0 };

/** The name a compiled text is sent under, or undefined for a statement to be sent unnamed. */
export function statementName(text: string): string | undefined {
  return names.get(text);
}

/**
 * Compiles `query` and checks that every value in it is a placeholder (a literal value would shift their numbers
 * and, named, be frozen into the statement); registers the text to be sent as a named prepared statement.
 */
export function compileOnce(db: Executor, query: Statement, arity: number, options: PrepareOptions = {}): string {
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0)
    throw new Error(`a prepared statement must take every value as a placeholder: ${compiled.sql}`);
  for (let n = 1; n <= arity; n++) {
    if (!new RegExp(`\\$${n}(?!\\d)`).test(compiled.sql))
      throw new Error(`a prepared statement does not use $${n}: ${compiled.sql}`);
  }
  if (options.plan !== 'custom' && !names.has(compiled.sql)) names.set(compiled.sql, `core_${names.size + 1}`);
  return compiled.sql;
}

/** One placeholder per named value; using one twice sends its value twice. */
export type Placeholders<Values> = { readonly [K in keyof Values]-?: Placeholder };

/** The choices a statement's text depends on; each combination is one compiled text. */
export type Shape = Record<string, string | number | boolean | null | undefined>;
type ShapeOf<S> = { [K in keyof S]: string | number | boolean | null | undefined };

/** Where a named value goes: Kysely numbers these like any value, and the run puts the value in its place. */
class Slot {
  constructor(readonly name: string) {}
}

const slots: Placeholders<Record<string, unknown>> = new Proxy(
  {},
  { get: (_, name) => (typeof name === 'string' ? sql.val(new Slot(name)) : undefined) },
);

interface Compiled {
  text: string;
  /** The values' names in parameter order. */
  order: string[];
}

/** Compiles a statement built with named placeholders; a value that is not one is refused (write constants with sql.lit). */
function compileNamed(db: Executor, query: Statement, options?: PrepareOptions): Compiled {
  const compiled = query.compile(db);
  const order = compiled.parameters.map((value) => {
    if (value instanceof Slot) return value.name;
    throw new Error(
      `a prepared statement must take every value as a placeholder (constants as sql.lit): ${compiled.sql}`,
    );
  });
  if (options?.plan !== 'custom' && !names.has(compiled.sql)) names.set(compiled.sql, `core_${names.size + 1}`);
  return { text: compiled.sql, order };
}

/**
 * A statement taking named values: `build` receives a placeholder for each (and the shape, if any) and returns
 * the query. Run it with `statement(db, values, shape)`; it answers the rows. The text is compiled once per
 * shape, so whatever `build` decides from the shape is decided once; anything that varies per call must be a
 * value (lists as arrays: `= any(${p.ids})`), and anything fixed a literal (`sql.lit(true)`): a plain value in
 * the query is refused, since it would be frozen into the statement for every later call.
 */
export function prepared<Row, Values extends object, S extends ShapeOf<S> = Record<never, never>>(
  build: (db: Executor, p: Placeholders<Values>, shape: S) => Statement<Row>,
  options?: PrepareOptions | ((shape: S) => PrepareOptions),
): (db: Executor, values: Values, ...shape: keyof S extends never ? [] : [S]) => Promise<Row[]>;
/** The positional form: `build` receives `arity` placeholders, the run takes the values in that order. */
export function prepared<Row, Values extends unknown[]>(
  arity: Values['length'],
  build: (db: Executor, ...params: Placeholder[]) => Statement<Row>,
): (db: Executor, ...values: Values) => Promise<Row[]>;
export function prepared(first: number | ((...args: any[]) => Statement), second?: unknown) {
  if (typeof first === 'number') {
    const arity = first;
    const build = second as (db: Executor, ...params: Placeholder[]) => Statement;
    let text: string | undefined;
    return async (db: Executor, ...values: unknown[]) => {
      text ??= compileOnce(db, build(db, ...Array.from({ length: arity }, (_, i) => placeholder(i + 1))), arity);
      return (await db.executeQuery(CompiledQuery.raw(text, values))).rows;
    };
  }
  const build = first as (db: Executor, p: object, shape: Shape) => Statement;
  const optionsOf = second as PrepareOptions | ((shape: Shape) => PrepareOptions) | undefined;
  const shapes = new Map<string, Compiled>();
  return async (db: Executor, values: Record<string, unknown>, shape: Shape = {}) => {
    // A Kysely with plugins transforms each query as it is built and sees its result: build this one with its
    // values, as Kysely would, so the plugins see what they expect (a text compiled once would skip them).
    if (db.getExecutor().plugins.length > 0) {
      const valued = new Proxy(
        {},
        { get: (_, name) => (typeof name === 'string' ? sql.val(values[name]) : undefined) },
      );
      return (await db.executeQuery(build(db, valued, shape).compile(db))).rows;
    }
    let key = '';
    for (const name in shape) key += `${String(shape[name])}|`;
    let compiled = shapes.get(key);
    if (!compiled)
      shapes.set(
        key,
        (compiled = compileNamed(
          db,
          build(db, slots, shape),
          typeof optionsOf === 'function' ? optionsOf(shape) : optionsOf,
        )),
      );
    const parameters = compiled.order.map((name) => values[name]);
    return (await db.executeQuery(CompiledQuery.raw(compiled.text, parameters))).rows;
  };
}
