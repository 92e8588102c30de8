// The ports the passwords module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the sessions module, so it carries that module's ports too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Notifier } from '../../notify/notifier';
import type { Throttle } from '../../security/throttle';
import type { Logger } from '../../logger';
import type { OutboundClient } from '../../security/outbound';
import type { SessionsDeps } from '../sessions';

export interface PasswordsDeps extends SessionsDeps {
  config: Config;
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  notifier: Notifier;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  /** The clock. */
  now: () => Date;
  /** Requests to the breach service, when one is configured (security/outbound.ts); without it none is asked. */
  outbound?: OutboundClient;
}
