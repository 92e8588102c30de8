// Quotas on what members send, counted in the database like every throttle (security/throttle.ts), so they hold
// across the instances of a region. Whoever is in danger is never refused: an alarm that goes off now (armed with
// a dispatch time within a minute or already passed, which the contract dispatches at once) is counted by no quota
// and refused by none; its abuse is bounded in the fan-out (personal-alarms.repeats.ts). What is counted: personal
// alarms created per sender that do not go off now, and external messages per sender and, as a higher ceiling, per
// tenant. A quota is spent only by a request that succeeded: each is counted in the transaction that stores the
// work, after its checks, so a refused request (4xx) or a rolled-back one spends nothing. Past a quota the answer is
// 429 TOO_MANY_REQUESTS with `unavailableUntil` (and Retry-After) at the end of the hour's window. The limits come
// from configuration (config.quotas); the defaults are far above what an organisation sends in normal use
// (docs/security.md).
import type { QuotaConfig } from '../config';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { latest, rateLimitValues, type RatePolicy } from './throttle';
import { countRateLimits } from './throttle.repository';

const hourly = (limit: number): RatePolicy => ({ limit, windowSeconds: 3600 });

/** A limit no count reaches: the key is counted (so the figures stay true) but refuses nothing. */
const unbounded = 2_147_483_647;

/** An alarm armed to go off this close to now (or earlier) dispatches at once. */
export const immediateDispatchMs = 60_000;

export const dispatchesAtOnce = (dispatchAt: Date, now: Date) =>
  dispatchAt.getTime() - now.getTime() <= immediateDispatchMs;

type Entry = [key: string, policy: RatePolicy];

/** Counts each key once, unless one is at its limit; answers the key that refuses (the first listed), if any. */
async function count(db: Db, now: Date, entries: Entry[]): Promise<{ key: string; until: Date } | null> {
  const row = await countRateLimits(db, rateLimitValues(now, entries));
  const refused = [
    ...(row.limited ?? []),
    ...(row.consumed ?? []).filter((r) => r.count > entries.find(([key]) => key === r.key)![1].limit),
  ];
  for (const [key] of entries) {
    const hits = refused.filter((r) => r.key === key);
    if (hits.length > 0) return { key, until: latest(hits.map((r) => r.window_ends_at)) };
  }
  return null;
}

/**
 * Counts an alarm the sender created, in the transaction that stores it (call it after every check): an alarm that
 * goes off now counts nothing and is never refused; any other creation throws 429 past the sender's quota, which
 * rolls the transaction back.
 */
export async function countAlarmCreation(
  trx: Db,
  now: Date,
  quotas: QuotaConfig,
  senderId: number,
  goesOffNow: boolean,
): Promise<void> {
  if (goesOffNow) return;
  const refused = await count(trx, now, [
    [`quota:alarm:create:user:${senderId}`, hourly(quotas.alarmsPerSenderPerHour)],
  ]);
  if (refused)
    throw new ApiError('TOO_MANY_REQUESTS', {
      unavailableUntil: refused.until,
      message: 'This sender has created too many alarms this hour',
    });
}

/** Who to ask when the organisation's ceiling refuses: the tenant's administrators. */
export interface Administrator {
  name: string;
  email: string;
}

export interface ExternalMessageSender {
  tenantId: number;
  userId: number;
  /** A tenant administrator's crisis message always goes out: counted, never refused (they may lift either limit). */
  tenantAdmin: boolean;
}

const askAdministrators = (admins: Administrator[]) =>
  admins.length === 0
    ? 'ask the operator of the service'
    : `ask an administrator of the organisation (${admins.map((a) => `${a.name} <${a.email}>`).join(', ')})`;

/**
 * Counts an external message, in the transaction that stores it (call it after every check): the sender's own
 * quota first, the tenant's higher ceiling last. A tenant administrator's message is counted and bounded by
 * neither (an administrator's crisis message goes out); while the ceiling is lifted neither bounds anyone. Past either it throws 429, naming
 * the tenant's administrators (who can lift it), which rolls the transaction back.
 */
export async function countExternalMessage(
  trx: Db,
  now: Date,
  quotas: QuotaConfig,
  sender: ExternalMessageSender,
  lifted: boolean,
  administrators: () => Promise<Administrator[]>,
): Promise<void> {
  const senderKey = `quota:cec:message:user:${sender.userId}:tenant:${sender.tenantId}`;
  const tenantKey = `quota:cec:message:tenant:${sender.tenantId}`;
  const refused = await count(trx, now, [
    [senderKey, hourly(lifted || sender.tenantAdmin ? unbounded : quotas.externalMessagesPerSenderPerHour)],
    [tenantKey, hourly(lifted || sender.tenantAdmin ? unbounded : quotas.externalMessagesPerTenantPerHour)],
  ]);
  if (!refused) return;
  const admins = await administrators();
  const what =
    refused.key === senderKey
      ? 'This sender has sent too many external messages this hour'
      : 'This organisation has sent too many external messages this hour';
  throw new ApiError('TOO_MANY_REQUESTS', {
    unavailableUntil: refused.until,
    message: `${what}; to lift the limit for the next hour, ${askAdministrators(admins)}`,
    administrators: admins,
  });
}
