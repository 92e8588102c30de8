import type { ApiFailure } from '../api/api-failure';
import { type Message, waitSeconds } from '../i18n/failure-messages';

/** What the password pages say about a failed call that is not about the link or the password itself. */
export function passwordFailureMessage(failure: ApiFailure): Message {
  if (failure.code === 'TOO_MANY_REQUESTS') {
    const seconds = waitSeconds(failure);
    return seconds === null ? { key: 'errors.tooManyRequests' } : { key: 'errors.rateLimited', values: { seconds } };
  }
  return { key: 'errors.generic' };
}
