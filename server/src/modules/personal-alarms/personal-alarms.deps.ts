// The ports the personal alarms module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { DeliveryDeps } from '../../notify/deliveries';
import type { Throttle } from '../../security/throttle';
import type { Logger } from '../../logger';
import type { JobScheduler } from '../../jobs/scheduler';

/** The module delivers its own dispatches (notify/deliveries.ts): the delivery's ports too. */
export interface PersonalAlarmsDeps extends DeliveryDeps {
  config: Config;
  db: Db;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  /** The clock. */
  now: () => Date;
  /** Durable jobs. */
  jobs: JobScheduler;
}
