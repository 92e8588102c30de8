import { ApiFailure, isShed, retryAfterMs, toApiFailure } from './api-failure';
import { clockOffsetMs } from './server-clock';

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export interface ApiSuccess<T> {
  data: T;
  /** Server clock minus client clock in ms. */
  clockOffsetMs: number;
}

/**
 * The longest Retry-After the app waits out before asking again for a request shed at the door; a longer wait is
 * reported to the user at once ("busy, try again") rather than leaving her in front of a spinner.
 */
export const MAX_SHED_RETRY_WAIT_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the request; a request shed at the door (503 SERVICE_UNAVAILABLE with a short Retry-After) was not
 * processed (the contract says so), so it is sent once more after the wait, whatever its method.
 */
async function send<T>(request: () => Promise<FetchResult<T>>): Promise<{ result: FetchResult<T>; sentAt: number }> {
  for (let attempt = 1; ; attempt++) {
    const sentAt = Date.now();
    let result: FetchResult<T>;
    try {
      result = await request();
    } catch {
      throw new ApiFailure('NETWORK_ERROR', 0);
    }
    const wait = isShed(result.error, result.response) ? retryAfterMs(result.response) : null;
    if (attempt > 1 || wait === null || wait > MAX_SHED_RETRY_WAIT_MS) return { result, sentAt };
    await sleep(wait);
  }
}

/** Runs one openapi-fetch call and returns its data, or throws an ApiFailure. */
export async function call<T>(request: () => Promise<FetchResult<T>>): Promise<ApiSuccess<T>> {
  const { result, sentAt } = await send(request);
  const offset = clockOffsetMs(result.response, sentAt, Date.now());
  if (result.response.ok && result.data !== undefined) return { data: result.data, clockOffsetMs: offset };
  throw toApiFailure(result.error, result.response, offset);
}

/** Runs one openapi-fetch call whose success has no body (202, 204); throws an ApiFailure otherwise. */
export async function callWithoutBody(request: () => Promise<FetchResult<unknown>>): Promise<void> {
  const { result, sentAt } = await send(request);
  if (result.response.ok) return;
  throw toApiFailure(result.error, result.response, clockOffsetMs(result.response, sentAt, Date.now()));
}
