// Lifting the tenant's ceiling of external messages for the next hour (security/sending-quotas.ts): a tenant
// administrator through the API, or the operator through the operator tool. Until then no quota refuses an
// external message of the tenant. Each lift is stored as its record (who, why, when, until when) and logged.
import type { components } from '../../../../generated/core-api';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import type { Logger } from '../../logger';
import type { AuthContext } from '../../shared/caller';
import { findUserLabel, insertCeilingLift } from './external-communication.quota.repository';

type CeilingLift = components['schemas']['CecCeilingLift'];
type LiftRequest = components['schemas']['LiftCecCeilingRequest'];

/** How long a lift holds. */
export const ceilingLiftMs = 3_600_000;

export interface CeilingLiftDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
}

/** Records a lift for the next hour and logs it; answers it as recorded. */
export async function recordCeilingLift(
  services: CeilingLiftDeps,
  tenantId: number,
  by: { userId: number | null; label: string },
  reason: string | null,
): Promise<CeilingLift> {
  const now = services.now();
  const row = await insertCeilingLift(services.db, {
    tenant_id: tenantId,
    lifted_by_user_id: by.userId,
    lifted_by: by.label,
    reason,
    created_at: now,
    lifted_until: new Date(now.getTime() + ceilingLiftMs),
  });
  services.logger.warn(
    { tenantId, liftId: row.id, liftedBy: by.label, liftedUntil: row.lifted_until.toISOString(), reason },
    'external-message ceiling lifted',
  );
  return {
    id: row.id,
    liftedBy: row.lifted_by,
    reason: row.reason,
    createdTime: row.created_at.toISOString(),
    liftedUntil: row.lifted_until.toISOString(),
  };
}

/** POST /external-communications/ceiling-lifts: a tenant administrator only. */
export async function liftCecCeiling(
  services: CeilingLiftDeps,
  auth: AuthContext,
  tenantId: number,
  body: LiftRequest,
): Promise<CeilingLift> {
  if (auth.tenantAdmin !== true)
    throw new ApiError('FORBIDDEN', {
      message: 'Only an administrator of the tenant may lift its ceiling of external messages',
    });
  const label = await findUserLabel(services.db, auth.userId);
  return recordCeilingLift(services, tenantId, { userId: auth.userId, label }, body.reason.trim());
}
