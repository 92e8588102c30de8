// Tenant administrators hold a role on their membership (memberships.is_admin), separate from the spec's
// feature flags: they manage api keys, contacts and SSO settings and see hidden groups (docs/decisions.md).
import { ApiError, type ErrorCode } from '../../errors';
import type { Db } from '../../db/database';

export async function isTenantAdmin(db: Db, tenantId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('is_admin')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.is_admin === true;
}

/** Throws `code` (403) unless the user administers the tenant. */
export async function requireTenantAdmin(db: Db, tenantId: number, userId: number, code: ErrorCode = 'FORBIDDEN', message?: string): Promise<void> {
  if (!(await isTenantAdmin(db, tenantId, userId))) throw new ApiError(code, { message: message ?? 'Only administrators of the tenant may do this' });
}
