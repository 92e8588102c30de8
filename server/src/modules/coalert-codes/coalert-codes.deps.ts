// The ports the coalert codes module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface CoalertCodesDeps {
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  /** The clock. */
  now: () => Date;
}
