// Who may change whose alarm, and the record of every change. A personal alarm is a lone worker's lifeline: moving
// it, rewriting it, taking over its recipients or silencing it is for its owner, or for an operator (a tenant
// administrator holding the alarm permission the operation needs) acting for them. Every change, by anyone, is
// recorded in personal_alarm_changes in the transaction that makes it; a change by someone other than the owner
// also enqueues the owner's notice (personal-alarms.delivery.ts), in that same transaction.
import type { PersonalAlarmAction } from '../../db/column-types';
import type { Db } from '../../db/database';
import { insertAlarmChange } from './personal-alarms.repository';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { PersonalAlarmsDeps } from './personal-alarms.deps';

// Stryker disable next-line StringLiteral: read once when the module loads, where Stryker's mutant switch cannot reach it
// (alarm-ownership.test.ts asserts the name and fails when this line is changed by hand).
export const alarmChangedJob = 'alarm.changed';

export type FieldChange = { from?: unknown; to?: unknown };
export type AlarmChanges = Record<string, FieldChange>;

/** The owner, or a tenant administrator (the operator of the tenant); anyone else answers 403. */
export function requireOwnerOrOperator(
  auth: AuthContext,
  alarm: { user_id: number },
  doing: 'change' | 'start' | 'stop',
): void {
  if (alarm.user_id === auth.userId || auth.tenantAdmin === true) return;
  throw new ApiError('FORBIDDEN', {
    message: `Only the alarm's owner or an administrator of the tenant may ${doing} this personal alarm`,
  });
}

/** Adds `field` when the value differs (compared as JSON, so dates, lists and objects compare by content). */
export function diff(changes: AlarmChanges, field: string, from: unknown, to: unknown): void {
  if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
}

export const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * Records a change (nothing when nothing changed; a creation always records every field) and, when the actor is not
 * the owner, enqueues the owner's notice of it.
 */
export async function recordAlarmChange(
  services: PersonalAlarmsDeps,
  trx: Db,
  alarm: { id: number; tenant_id: number; user_id: number },
  actorId: number,
  action: PersonalAlarmAction,
  changes: AlarmChanges,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  const id = await insertAlarmChange(trx, {
    tenant_id: alarm.tenant_id,
    alarm_id: alarm.id,
    actor_id: actorId,
    action,
    changes: toJson(changes),
    created_at: services.now(),
  });
  if (actorId !== alarm.user_id) {
    await services.jobs.enqueue(trx, {
      kind: alarmChangedJob,
      dedupeKey: `alarm-change:${id}`,
      payload: { alarmId: alarm.id, changeId: id },
      maxAttempts: 20,
    });
  }
}

/**
 * JSON for jsonb. JSON.stringify writes a lone surrogate as an escape (\udfff), which PostgreSQL's jsonb refuses;
 * the text column holds such a character as U+FFFD (UTF-8 has no lone surrogates), so the record says the same.
 */
function toJson(value: unknown): string {
  // An escape only where the backslash is not itself escaped (a text may hold a literal "\\udfff").
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi, '$1\\ufffd');
}
