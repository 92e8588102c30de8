// Kysely dialect for embedded PGlite (Postgres compiled to WebAssembly). PGlite has one connection, so the
// driver hands it out under a mutex: a transaction keeps it until commit or rollback. Texts registered in
// prepared.ts run as named prepared statements (pglite-prepared.ts); everything else through PGlite's query().
import type { PGlite } from '@electric-sql/pglite';
import { roundTrips, statementName } from './prepared';
import { PreparedStatements } from './pglite-prepared';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly db: PGlite,
    private readonly prepared: PreparedStatements,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    roundTrips.count++;
    const name = statementName(compiled.sql);
    const result = name
      ? await this.prepared.run<R>(name, compiled.sql, compiled.parameters)
      : await this.db.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined,
    };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly prepared: PreparedStatements;

  constructor(
    private readonly db: PGlite,
    private readonly closeOnDestroy: boolean,
  ) {
    this.prepared = new PreparedStatements(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    const connection = new PGliteConnection(this.db, this.prepared);
    this.releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {
    if (this.closeOnDestroy && !this.db.closed) await this.db.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly db: PGlite,
    private readonly closeOnDestroy = true,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db, this.closeOnDestroy);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
