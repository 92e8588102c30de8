// SQL of the external-message ceiling (security/sending-quotas.ts): its lifts, kept as their record, and who to ask
// when it refuses. Every query carries the tenant predicate.
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database';
import type { DB as Database } from '../../db/types';

/** The end of the tenant's latest lift still running at `now`, or null. */
export async function ceilingLiftedUntil(db: Executor, tenantId: number, now: Date): Promise<Date | null> {
  const row = await db
    .selectFrom('cec_ceiling_lifts')
    .select('lifted_until')
    .where('tenant_id', '=', tenantId)
    .where('lifted_until', '>', now)
    .orderBy('lifted_until', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.lifted_until ?? null;
}

/** Records a lift; answers it as stored. */
export const insertCeilingLift = (db: Executor, lift: Insertable<Database['cec_ceiling_lifts']>) =>
  db.insertInto('cec_ceiling_lifts').values(lift).returningAll().executeTakeFirstOrThrow();

/** The tenant's active administrators (at most 100, by name): who can lift the ceiling. */
export const selectTenantAdministrators = (db: Executor, tenantId: number) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.name', 'u.email'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.is_admin', '=', true)
    .where('m.active', '=', true)
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(100)
    .execute();

/** How a lift records its administrator: name and email. */
export async function findUserLabel(db: Executor, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
  return `${row.name} <${row.email}>`;
}
