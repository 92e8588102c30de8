import type { ApiFailure } from '../api/api-failure';
import { toClientTime } from '../api/server-clock';
import { secondsUntil } from '../login/duration';

/** A message as a translation key plus its values: translated when rendered, so a language switch applies. */
export interface Message {
  key: string;
  values?: Record<string, string | number>;
}

/** Seconds until a rate-limited call may be made again, or null when the server did not say. */
export function waitSeconds(failure: ApiFailure): number | null {
  const until = toClientTime(failure.unavailableUntil, failure.clockOffsetMs);
  const seconds = secondsUntil(until);
  return until === null || seconds === 0 ? null : seconds;
}

/** Spec section 8, login screen. INVALID_CREDENTIALS is shown on both fields, the rest above the form. */
export function loginFailureMessage(failure: ApiFailure): Message {
  switch (failure.code) {
    case 'INVALID_CREDENTIALS':
      return { key: 'errors.invalidCredentials' };
    case 'TOO_MANY_REQUESTS': {
      const seconds = waitSeconds(failure);
      return seconds === null ? { key: 'errors.tooManyRequests' } : { key: 'errors.rateLimited', values: { seconds } };
    }
    case 'NETWORK_ERROR':
      return { key: 'errors.generic' };
    default:
      return { key: 'errors.wrongLogin' };
  }
}

/** Spec section 8, 2FA screen. */
export function twoFactorFailureMessage(failure: ApiFailure): Message {
  switch (failure.code) {
    case 'TOO_MANY_REQUESTS':
      return { key: 'errors.tooManyRequests' };
    case 'INVALID_CREDENTIALS':
      return { key: 'errors.incorrectCode' };
    default:
      return { key: 'errors.generic' };
  }
}
