// Named prepared statements on PGlite. PGlite's query() parses and plans its text on every call, and enters the
// WebAssembly engine six times to do so (parse, describe, bind, describe, execute, sync). A registered text is
// parsed and described here once under its name; each run then binds, executes and syncs it in one message to
// the engine, with its values serialised as query() would (by the parameter types PostgreSQL described), and
// its rows parsed by PGlite's own result parser against the row description kept from the first time.
import { parse, protocol, type messages as pgMessages, type PGlite, type Results } from '@electric-sql/pglite';

type Values = readonly unknown[];

/** The frontend messages `parts` makes, in one buffer (each made and copied before the next is made). */
function messages(...parts: (() => Uint8Array)[]): Uint8Array {
  const made = parts.map((part) => part().slice());
  const all = new Uint8Array(made.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const m of made) {
    all.set(m, at);
    at += m.length;
  }
  return all;
}

export class PreparedStatements {
  /** Each statement parsed on this instance, by name: its parameter types and its rows' description. */
  private readonly described = new Map<string, { types: number[]; rows: pgMessages.BackendMessage[] }>();

  constructor(private readonly db: PGlite) {}

  run<Row>(name: string, text: string, values: Values): Promise<Results<Row>> {
    return this.db.runExclusive(async () => {
      let statement = this.described.get(name);
      if (!statement) {
        const answer = await this.db.execProtocolStream(
          messages(
            () => protocol.serialize.parse({ name, text }),
            () => protocol.serialize.describe({ type: 'S', name }),
            () => protocol.serialize.sync(),
          ),
        );
        statement = {
          types: parse.parseDescribeStatementResults(answer),
          rows: answer.filter((m) => m.name === 'rowDescription'),
        };
        this.described.set(name, statement);
      }
      const types = statement.types;
      const serialized = values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = this.db.serializers[types[i]];
        return serialize ? serialize(value) : String(value);
      });
      const answer = await this.db.execProtocolStream(
        messages(
          () => protocol.serialize.bind({ statement: name, values: serialized }),
          () => protocol.serialize.execute({}),
          () => protocol.serialize.sync(),
        ),
      );
      return parse.parseResults([...statement.rows, ...answer], this.db.parsers)[0] as Results<Row>;
    });
  }
}
