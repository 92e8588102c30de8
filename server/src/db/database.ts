import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Client, Pool, types as pgTypes } from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir } from './data-dir-lock';
import { PGliteDialect } from './pglite-dialect';
import { Pipelines, pipeliningPool } from './pipeline';
import { roundTrips, statementName } from './prepared';
import type { Db } from './executor';
import type { DB as Database } from './types';

export type { Db, Executor, Trx } from './executor';

const INT8 = 20;
// Ids are bigint in SQL and numbers in the API; every id stays below 2^53.
const parseInt8 = (value: string) => Number(value);

/**
 * The embedded database's buffer cache. PostgreSQL's default (128 MB, written by initdb into postgresql.conf) is
 * sized for a server of its own; PGlite keeps it inside the process's WebAssembly memory, which never shrinks, so
 * every page it ever cached stays resident in the region for good. The embedded databases of development and
 * tests are a few tens of MB, and a page that is not in this cache is one read from the operating system's file
 * cache (or from memory with an in-memory data directory): 16 MB keeps the hot pages and bounds PGlite's share of
 * the region's memory (docs/benchmarks.md, "Memory of `npm start`").
 */
export const pgliteSharedBuffers = '16MB';

export interface DatabaseOptions {
  /** postgres://… for a PostgreSQL server; otherwise embedded PGlite. */
  url?: string | null;
  /** PGlite data directory; null or undefined keeps it in memory. */
  dataDir?: string | null;
  /** A PGlite data dump to start from (tests start from a migrated snapshot). */
  loadDataDir?: Blob;
  /** PostgreSQL schema to work in (tests isolate each file in its own schema). */
  schema?: string;
  poolSize?: number;
  /** PostgreSQL: the shared pipelined connections for single prepared statements (pipeline.ts); 2 unless given. */
  pipelines?: number;
}

/**
 * node-postgres's client, sending the texts registered in prepared.ts as named prepared statements: the first
 * run on a connection parses the text under its name, later runs only bind and execute it. Kysely hands the
 * client a text and its values; everything else passes through as it came.
 */
class PreparingClient extends Client {
  override query(...args: unknown[]): any {
    roundTrips.count++;
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 ? statementName(text) : undefined;
    if (name) return super.query({ name, text: text as string, values: values as unknown[] });
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** The schema the connection works in, when it is not the default. */
  schema?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's use (metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PGlite only: the whole data directory as a tarball (to start other instances from it). */
  dump?: () => Promise<Blob>;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const connection = {
      connectionString: options.url,
      connectionTimeoutMillis: 5_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? parseInt8 : pgTypes.getTypeParser(oid, format as 'text')) as typeof pgTypes.getTypeParser,
      },
    };
    const pool = new Pool({
      ...connection,
      Client: PreparingClient,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
    });
    // Single prepared statements share pipelined connections (pipeline.ts); transactions and the rest use the pool.
    const pipelines = new Pipelines(
      () => new PreparingClient({ ...connection, pipeline: true } as ConstructorParameters<typeof Client>[0]),
      options.pipelines ?? 2,
    );
    // A dropped connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    // The pool listens only to idle clients: a connection lost while checked out (PostgreSQL restarting while a
    // transaction waits between statements, say) emits 'error' on the client itself, which crashed the process.
    // The query in progress fails on its own and the broken client is dropped when it is released.
    pool.on('connect', (client) => void client.on('error', () => undefined));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: pipeliningPool(pool, pipelines) as never }),
    });
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return {
      db,
      kind: 'postgres',
      schema: options.schema,
      poolStats,
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      parsers: { [INT8]: parseInt8 },
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers}`],
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await db.destroy();
      unlock();
    },
    dump: () => pglite.dumpDataDir('none') as Promise<Blob>,
  };
}
