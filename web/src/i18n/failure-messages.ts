import type { ApiFailure } from '../api/api-failure';
import { toClientTime } from '../api/server-clock';
import type { TranslationKey } from './keys';

/**
 * A message as a translation key plus its values: translated when rendered, so a language switch applies.
 * `until` (client time) is the end of a wait the message speaks of: shown as `{{duration}}`, counting down.
 */
export interface Message {
  key: TranslationKey;
  values?: Record<string, string | number>;
  until?: number;
}

/** The client time from which a rate-limited call may be made again, or null when the server did not say. */
export function waitUntil(failure: ApiFailure): number | null {
  const until = toClientTime(failure.unavailableUntil, failure.clockOffsetMs);
  return until !== null && until > Date.now() ? until : null;
}

/** 'Too many attempts. Please wait {duration}…' with the wait counting down, or the plain 429 text. */
export function rateLimitedMessage(failure: ApiFailure): Message {
  const until = waitUntil(failure);
  return until === null ? { key: 'errors.tooManyRequests' } : { key: 'errors.rateLimited', until };
}

/**
 * A request shed at the door, already asked again once (api/call.ts): the region is busy. Never "Something went
 * wrong" or "Wrong login": nothing went wrong with what the user did.
 */
export const BUSY: Message = { key: 'errors.busy' };

/**
 * The service could not answer (a proxy's 502 or 504, a 503 without Retry-After, a 500): nothing the user did was
 * wrong, so never "Wrong login", which sends people to reset a password that is fine.
 */
export const UNAVAILABLE: Message = { key: 'errors.unavailable' };

/**
 * Spec section 8, login screen. INVALID_CREDENTIALS is shown on both fields, the rest above the form. The spec's
 * "any other error" (Wrong login) is for real 4xx answers; a 5xx answer says the service is unavailable.
 */
export function loginFailureMessage(failure: ApiFailure): Message {
  if (failure.shed) return BUSY;
  if (failure.httpStatus >= 500) return UNAVAILABLE;
  switch (failure.code) {
    case 'INVALID_CREDENTIALS':
      return { key: 'errors.invalidCredentials' };
    case 'TOO_MANY_REQUESTS':
      return rateLimitedMessage(failure);
    case 'NETWORK_ERROR':
      return { key: 'errors.generic' };
    default:
      return { key: 'errors.wrongLogin' };
  }
}

/**
 * A wait longer than a day on a second factor: the lock after 30 wrong codes, which only a password reset (or a
 * completed sign-in from a familiar device) ends; its year-long `unavailableUntil` is no wait to show.
 */
export const secondFactorLocked = (failure: ApiFailure) =>
  failure.code === 'TOO_MANY_REQUESTS' && (waitUntil(failure) ?? 0) - Date.now() > 86_400_000;

/** Spec section 8, 2FA screen. */
export function twoFactorFailureMessage(failure: ApiFailure): Message {
  if (failure.shed) return BUSY;
  switch (failure.code) {
    case 'TOO_MANY_REQUESTS':
      return secondFactorLocked(failure) ? { key: 'twoFactor.lockedResetPassword' } : { key: 'errors.tooManyRequests' };
    case 'INVALID_CREDENTIALS':
      return { key: 'errors.incorrectCode' };
    default:
      return { key: 'errors.generic' };
  }
}

/** Answers that mean the pending session itself is over: no code can be verified or sent for it any more. */
const SESSION_ENDED: readonly string[] = [
  'EXPIRED_ACCESS_TOKEN',
  'INVALID_SESSION',
  'INVALID_SESSION_ID',
  'UNAUTHORIZED',
  'INVALID_AUTHORIZATION_HEADER',
];

export const hasSessionEnded = (failure: ApiFailure) => SESSION_ENDED.includes(failure.code);
