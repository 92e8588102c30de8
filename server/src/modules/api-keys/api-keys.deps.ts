// The ports the api keys module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface ApiKeysDeps {
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  /** The clock. */
  now: () => Date;
}
