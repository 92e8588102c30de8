import { asFailure } from '../../api/api-failure';
import { BUSY, type Message, UNAVAILABLE, hasSessionEnded, rateLimitedMessage } from '../../i18n/failure-messages';

/** What a section of the account page says about a call that failed. */
export function accountFailureMessage(error: unknown): Message {
  const failure = asFailure(error);
  if (failure.shed) return BUSY;
  if (failure.httpStatus >= 500) return UNAVAILABLE;
  if (failure.code === 'TOO_MANY_REQUESTS') return rateLimitedMessage(failure);
  if (failure.code === 'NETWORK_ERROR') return { key: 'errors.connection' };
  if (failure.code === 'NOT_FOUND') return { key: 'account.gone' };
  if (failure.httpStatus === 401 && hasSessionEnded(failure)) return { key: 'account.ended.title' };
  return { key: 'errors.generic' };
}
