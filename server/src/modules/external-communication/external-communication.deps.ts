// The ports the external communication module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { DeliveryDeps } from '../../notify/deliveries';
import type { Throttle } from '../../security/throttle';
import type { JobScheduler } from '../../jobs/scheduler';

/** The module delivers its own dispatches (notify/deliveries.ts): the delivery's ports too. */
export interface ExternalCommunicationDeps extends DeliveryDeps {
  config: Config;
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  /** The clock. */
  now: () => Date;
  /** Durable jobs. */
  jobs: JobScheduler;
}
