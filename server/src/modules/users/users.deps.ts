// The ports the users module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the groups module, so it carries that module's ports too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { GroupsDeps } from '../groups';

export interface UsersDeps extends GroupsDeps {
  config: Config;
  db: Db;
  /** The clock. */
  now: () => Date;
}
