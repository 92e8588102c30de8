// The statement behind the tenant-admin checks: the role on a membership.
import { prepared, type Placeholders } from '../db/prepared';

/** The user's membership role in the tenant (memberships.is_admin); no row when not a member. */
export const selectMembershipRole = prepared((db, p: Placeholders<{ tenantId: number; userId: number }>) =>
  db.selectFrom('memberships').select('is_admin').where('tenant_id', '=', p.tenantId).where('user_id', '=', p.userId),
);
