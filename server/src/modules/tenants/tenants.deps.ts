// The ports the tenants module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these.
import type { Db } from '../../db/database';

export interface TenantsDeps {
  db: Db;
}
