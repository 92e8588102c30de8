import type { OutboundClient } from './security/outbound';
import type { Config } from './config';
import type { Db, DatabaseHandle } from './db/database';
import type { JobScheduler } from './jobs/scheduler';
import type { Logger } from './logger';
import type { Notifier } from './notify/notifier';
import type { AccessTokens } from './security/access-tokens';
import type { Throttle } from './security/throttle';

/** Everything a handler or service may use, built once at boot (main.ts) or per test file. */
export interface Services {
  config: Config;
  db: Db;
  database: DatabaseHandle;
  tokens: AccessTokens;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  notifier: Notifier;
  /** Database-backed rate limits and lockouts. */
  throttle: Throttle;
  logger: Logger;
  now: () => Date;
  /** Durable jobs (message delivery, personal alarms): start() in main.ts; tests call runDueJobs(). */
  jobs: JobScheduler;
  /** Requests to URLs tenants configure (identity providers): public addresses only in production. */
  outbound: OutboundClient;
}
