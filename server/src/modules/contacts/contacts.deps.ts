// The ports the contacts module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface ContactsDeps {
  db: Db;
  /** The clock. */
  now: () => Date;
}
