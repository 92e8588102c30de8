// Tenant administrators hold a role on their membership (memberships.is_admin), separate from the spec's
// feature flags: they manage api keys, contacts and SSO settings and see hidden groups (docs/decisions.md).
import { ApiError, type ErrorCode } from '../errors';
import type { Db } from '../db/database';
import { selectMembershipRole } from './tenant-access.repository';

export async function isTenantAdmin(db: Db, tenantId: number, userId: number): Promise<boolean> {
  const [row] = await selectMembershipRole(db, { tenantId, userId });
  return row?.is_admin === true;
}

/**
 * Throws `code` (403) unless the user administers the tenant. `known`: the role as authentication read it for
 * this request's tenant (AuthContext.tenantAdmin), which saves reading it again.
 */
export async function requireTenantAdmin(
  db: Db,
  tenantId: number,
  userId: number,
  code: ErrorCode = 'FORBIDDEN',
  message?: string,
  known?: boolean,
): Promise<void> {
  if (!(known ?? (await isTenantAdmin(db, tenantId, userId))))
    throw new ApiError(code, { message: message ?? 'Only administrators of the tenant may do this' });
}
