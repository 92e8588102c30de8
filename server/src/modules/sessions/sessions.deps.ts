// The ports the sessions module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { AccessTokens } from '../../security/access-tokens';
import type { Notifier } from '../../notify/notifier';
import type { Throttle } from '../../security/throttle';
import type { Logger } from '../../logger';

export interface SessionsDeps {
  config: Config;
  db: Db;
  tokens: AccessTokens;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  notifier: Notifier;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  /** The clock. */
  now: () => Date;
}
