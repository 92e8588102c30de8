// The ports the sso module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the integrations and sessions modules, so it carries their ports too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Throttle } from '../../security/throttle';
import type { Logger } from '../../logger';
import type { OutboundClient } from '../../security/outbound';
import type { IntegrationsDeps } from '../integrations';
import type { SessionsDeps } from '../sessions';

export interface SsoDeps extends IntegrationsDeps, SessionsDeps {
  config: Config;
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  /** The clock. */
  now: () => Date;
  /** Requests to URLs tenants configure: public addresses only in production. */
  outbound: OutboundClient;
}
