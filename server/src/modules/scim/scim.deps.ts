// The ports the scim module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the api-keys, invitations, sessions and users modules, so it carries their ports
// too.
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { JobScheduler } from '../../jobs/scheduler';
import type { ApiKeysDeps } from '../api-keys';
import type { InvitationsDeps } from '../invitations';
import type { SessionsDeps } from '../sessions';
import type { UsersDeps } from '../users';

export interface ScimDeps extends ApiKeysDeps, InvitationsDeps, SessionsDeps, UsersDeps {
  config: Config;
  db: Db;
  /** The clock. */
  now: () => Date;
  /** Durable jobs. */
  jobs: JobScheduler;
}
