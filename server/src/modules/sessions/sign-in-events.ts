// A sign-in's security events (modules/security-events). A session written by a sign-in step carries its event in
// the same statement (sessions.repository.ts: signInEvent): a successful sign-in costs no extra round trip. A
// failure of a known account and a refusal by a lockout are one more statement each; a refusal is recorded at most
// once per account per refusedEventGapMs (a locked-out attacker's every retry would otherwise be a row). An unknown
// account's failure is no event: no tenant's administrator could see it, and recording every guessed address
// would let anyone fill the table; the lockouts and the sign-in metrics count them.
import { ApiError } from '../../errors';
import type { Executor } from '../../db/database';
import { countSecurityEvents, recordSecurityEvent, type EventClient, type SecurityEventKind } from '../security-events';
import type { SessionsDeps } from './sessions.deps';
import type { Factors, SignInEventValues } from './sessions.repository';
import { recordRefusalOnce } from './sign-in-events.repository';

/** The client and method of a sign-in step, for its event; `stepUp`: the step-up asked for an emailed code. */
export interface SignInEvent {
  client: EventClient;
  method: string;
  stepUp?: boolean;
}

export const refusedEventGapMs = 15 * 60_000;

export const signInEventValues = (event: SignInEvent): SignInEventValues => ({
  eventRegion: event.client.region,
  eventNetwork: event.client.network,
  eventUserAgent: event.client.userAgent,
  eventMethod: event.method,
});

const complete = (factors: Factors) => Object.values(factors).every((v) => v === 'verified');

/** Counts the event the session's statement wrote (as signInEvent decides it). */
export function countSignInEvent(factors: Factors, stepUp = false): void {
  const kind: SecurityEventKind | null = complete(factors) ? 'sign_in_succeeded' : stepUp ? 'sign_in_stepped_up' : null;
  if (kind) countSecurityEvents([kind]);
}

/** A wrong secret for a known account. */
export function signInFailed(
  services: { db: Executor },
  event: SignInEvent,
  userId: number,
  kind: 'sign_in_failed' | 'second_factor_failed' = 'sign_in_failed',
): Promise<void> {
  return recordSecurityEvent(services.db, {
    kind,
    userId,
    client: event.client,
    details: { method: event.method },
  });
}

/**
 * Runs `check` (a lockout verdict); when it refuses with 429 and the account is known, records
 * `sign_in_locked_out` (at most once per account per refusedEventGapMs) before answering the refusal.
 */
export async function signInRefused<T>(
  services: Pick<SessionsDeps, 'db' | 'now'>,
  event: SignInEvent | null,
  userId: number | undefined,
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (event && userId !== undefined && error instanceof ApiError && error.code === 'TOO_MANY_REQUESTS') {
      const now = services.now();
      const written = await recordRefusalOnce(services.db, {
        userId,
        now,
        since: new Date(now.getTime() - refusedEventGapMs),
        region: event.client.region,
        network: event.client.network,
        userAgent: event.client.userAgent,
        method: event.method,
      });
      if (written) countSecurityEvents(['sign_in_locked_out']);
    }
    throw error;
  }
}

/**
 * A sign-in step that completed the session (a second factor, a single sign-on's answer), on `db`: the transaction
 * that settles the session. Nothing when a factor is still unverified.
 */
export async function signInSucceeded(
  db: Executor,
  event: SignInEvent,
  userId: number,
  factors: Partial<Factors> | Record<string, string>,
): Promise<void> {
  if (!Object.values(factors).every((v) => v === 'verified')) return;
  await recordSecurityEvent(db, {
    kind: 'sign_in_succeeded',
    userId,
    client: event.client,
    details: { method: event.method },
  });
}
