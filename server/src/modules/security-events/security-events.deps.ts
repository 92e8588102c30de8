// The ports the security events module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Config } from '../../config';
import type { Db } from '../../db/database';

export interface SecurityEventsDeps {
  config: Config;
  db: Db;
  /** The clock. */
  now: () => Date;
}
