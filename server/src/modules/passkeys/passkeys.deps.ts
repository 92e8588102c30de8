// The ports the passkeys module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the sessions module, so it carries that module's ports too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Notifier } from '../../notify/notifier';
import type { Throttle } from '../../security/throttle';
import type { Logger } from '../../logger';
import type { SessionsDeps } from '../sessions';

export interface PasskeysDeps extends SessionsDeps {
  config: Config;
  db: Db;
  notifier: Notifier;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  /** The clock. */
  now: () => Date;
}
