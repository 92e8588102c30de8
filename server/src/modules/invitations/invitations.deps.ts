// The ports the invitations module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the passwords and users modules, so it carries their ports too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Notifier } from '../../notify/notifier';
import type { Logger } from '../../logger';
import type { JobScheduler } from '../../jobs/scheduler';
import type { PasswordsDeps } from '../passwords';
import type { UsersDeps } from '../users';

export interface InvitationsDeps extends PasswordsDeps, UsersDeps {
  config: Config;
  db: Db;
  /** Key for HMACs of stored secrets and for encryption at rest. */
  secretKey: Buffer;
  notifier: Notifier;
  logger: Logger;
  /** Durable jobs. */
  jobs: JobScheduler;
}
