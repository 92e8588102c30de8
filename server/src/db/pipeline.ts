// Single statements share a few pipelined connections; everything else has a connection of its own.
//
// A request's hot statements (the session check, the page it reads) are named prepared statements (prepared.ts)
// run one at a time outside any transaction. Sent from a pool, each takes a connection of its own, one write to
// PostgreSQL and one wake-up of its backend. On a pipelined connection (node-postgres's pipeline mode) statements
// are written without waiting for the answers before them, and the statements written in one tick leave in one
// write: under load a backend answers several per wake-up, and the region writes less than once per statement.
//
// What goes where is decided per checkout, by its statements: while a checkout has sent only registered prepared
// statements it uses the shared connections; its first other statement (`begin` of every transaction, the
// advisory lock of advisory-lock.ts, any raw SQL) takes a connection of its own from the pool for the rest of the
// checkout. A registered statement must therefore never be one that leaves state on its connection (a lock, a
// setting, a temporary table): nothing registered does, and prepared.ts registers only what its callers build.
import { Client, type Pool, type PoolClient, type QueryResult } from 'pg';
import { statementName } from './prepared';

type ClientFactory = () => Client;

interface Lane {
  client: Client;
  ready: Promise<void>;
  inFlight: number;
  alive: boolean;
  /** The writes of this tick are held back and leave together (one write for every statement of the tick). */
  corked: boolean;
}

/** A few connections in pipeline mode; each statement goes to the one with the fewest waiting. */
export class Pipelines {
  private readonly lanes: (Lane | null)[];
  private ended = false;

  constructor(
    private readonly create: ClientFactory,
    count: number,
  ) {
    this.lanes = Array.from({ length: Math.max(1, count) }, () => null);
  }

  private open(index: number): Lane {
    const client = this.create();
    const lane: Lane = { client, ready: Promise.resolve(), inFlight: 0, alive: true, corked: false };
    const drop = () => {
      lane.alive = false;
      if (this.lanes[index] === lane) this.lanes[index] = null;
    };
    // A lost connection fails the statements on it (as a pooled one would) and is replaced on the next use.
    client.on('error', drop);
    client.on('end', drop);
    lane.ready = client.connect().then(
      () => undefined,
      (error: unknown) => {
        drop();
        throw error;
      },
    );
    // Awaited by the statement that opened it; a refused connection must not also surface as unhandled.
    lane.ready.catch(() => undefined);
    this.lanes[index] = lane;
    return lane;
  }

  private pick(): Lane {
    let best: Lane | null = null;
    for (let i = 0; i < this.lanes.length; i++) {
      const lane = this.lanes[i] ?? this.open(i);
      if (!best || lane.inFlight < best.inFlight) best = lane;
      if (lane.inFlight === 0) break;
    }
    return best!;
  }

  async query(text: string, values: unknown[]): Promise<QueryResult> {
    if (this.ended) throw new Error('the database connections are closed');
    const lane = this.pick();
    lane.inFlight++;
    try {
      await lane.ready;
      const stream = (lane.client as unknown as { connection: { stream: NodeJS.WritableStream & Corkable } }).connection
        .stream;
      if (!lane.corked && typeof stream.cork === 'function') {
        lane.corked = true;
        stream.cork();
        process.nextTick(() => {
          lane.corked = false;
          stream.uncork();
        });
      }
      return await lane.client.query(text, values);
    } finally {
      lane.inFlight--;
    }
  }

  async end(): Promise<void> {
    this.ended = true;
    const open = this.lanes.filter((l): l is Lane => l !== null);
    this.lanes.fill(null);
    await Promise.all(open.map((l) => l.ready.then(() => l.client.end()).catch(() => undefined)));
  }
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * What Kysely's PostgresDialect checks out per statement or transaction: the shared pipelines while it sends only
 * registered prepared statements, a pooled connection of its own from its first other statement on.
 */
class Checkout {
  private own: PoolClient | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly pipelines: Pipelines,
  ) {}

  async query(text: string, values: unknown[]): Promise<QueryResult> {
    if (!this.own && statementName(text) !== undefined) return this.pipelines.query(text, values);
    this.own ??= await this.pool.connect();
    return this.own.query(text, values);
  }

  release(error?: Error | boolean): void {
    const own = this.own;
    this.own = null;
    own?.release(error);
  }
}

/** The pool Kysely sees: checkouts that pipeline single statements; `end` closes both kinds of connection. */
export function pipeliningPool(pool: Pool, pipelines: Pipelines) {
  return {
    connect: async () => new Checkout(pool, pipelines) as unknown as PoolClient,
    end: async () => {
      await pipelines.end();
      await pool.end();
    },
  };
}
