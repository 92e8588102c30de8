// Quotas on what members send, counted in the database like every throttle (security/throttle.ts), so they hold
// across the instances of a region: personal alarms created per sender, alarms that go off at once per sender
// (armed with a dispatch time within a minute or already passed, which the contract dispatches at once), and
// external messages per tenant. Past a quota the answer is 429 TOO_MANY_REQUESTS with `unavailableUntil` (and
// Retry-After) at the end of the hour's window; nothing is stored. The limits come from configuration
// (config.quotas); the defaults are far above what an organisation sends in normal use (docs/security.md).
import type { QuotaConfig } from '../config';
import { ApiError, tooManyRequests } from '../errors';
import type { Throttle } from './throttle';

const hourly = (limit: number) => ({ limit, windowSeconds: 3600 });

/** An alarm armed to go off this close to now (or earlier) dispatches at once, as far as the quota goes. */
export const immediateDispatchMs = 60_000;

export const dispatchesAtOnce = (dispatchAt: Date, now: Date) =>
  dispatchAt.getTime() - now.getTime() <= immediateDispatchMs;

async function spend(work: Promise<void>, message: string): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TOO_MANY_REQUESTS' && error.unavailableUntil)
      throw tooManyRequests(error.unavailableUntil, message);
    throw error;
  }
}

/** Counts an alarm the sender creates and/or arms to go off at once; throws 429 past either quota. */
export function spendAlarmQuota(
  throttle: Throttle,
  quotas: QuotaConfig,
  senderId: number,
  what: { create: boolean; immediate: boolean },
): Promise<void> {
  const entries: Parameters<Throttle['consume']> = [];
  if (what.create) entries.push([`quota:alarm:create:user:${senderId}`, hourly(quotas.alarmsPerSenderPerHour)]);
  if (what.immediate)
    entries.push([`quota:alarm:immediate:user:${senderId}`, hourly(quotas.immediateAlarmsPerSenderPerHour)]);
  if (entries.length === 0) return Promise.resolve();
  return spend(throttle.consume(...entries), 'This sender has started too many alarms this hour');
}

/** Counts an external message of the tenant; throws 429 past the tenant's quota. */
export function spendExternalMessageQuota(throttle: Throttle, quotas: QuotaConfig, tenantId: number): Promise<void> {
  return spend(
    throttle.consume([`quota:cec:message:tenant:${tenantId}`, hourly(quotas.externalMessagesPerTenantPerHour)]),
    'This organisation has sent too many external messages this hour',
  );
}
