// What a repository function runs its statements on. Apart from database.ts (which opens the database) so that the
// statement registry (prepared.ts), which database.ts uses, can name it without an import cycle.
import type { Kysely, Transaction } from 'kysely';
import type { DB as Database } from './types';

export type Db = Kysely<Database>;
/** The database or a transaction on it: what a repository function runs its statements on. */
export type Executor = Kysely<Database> | Transaction<Database>;
/** A transaction on the database: what a statement that locks rows until the end of the work runs on. */
export type Trx = Transaction<Database>;
