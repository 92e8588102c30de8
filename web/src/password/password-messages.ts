import type { ApiFailure } from '../api/api-failure';
import { BUSY, type Message, rateLimitedMessage } from '../i18n/failure-messages';

/** What the password pages say about a failed call that is not about the link or the password itself. */
export function passwordFailureMessage(failure: ApiFailure): Message {
  if (failure.shed) return BUSY;
  return failure.code === 'TOO_MANY_REQUESTS' ? rateLimitedMessage(failure) : { key: 'errors.generic' };
}
