// The ports the push tokens module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface PushTokensDeps {
  db: Db;
  /** The clock. */
  now: () => Date;
}
