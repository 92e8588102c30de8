import { ApiFailure, toApiFailure } from './api-failure';
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

/** Runs one openapi-fetch call and returns its data, or throws an ApiFailure. */
export async function call<T>(request: () => Promise<FetchResult<T>>): Promise<ApiSuccess<T>> {
  const sentAt = Date.now();
  let result: FetchResult<T>;
  try {
    result = await request();
  } catch {
    throw new ApiFailure('NETWORK_ERROR', 0);
  }
  const offset = clockOffsetMs(result.response, sentAt, Date.now());
  if (result.response.ok && result.data !== undefined) return { data: result.data, clockOffsetMs: offset };
  throw toApiFailure(result.error, result.response, offset);
}

/** Runs one openapi-fetch call whose success has no body (202, 204); throws an ApiFailure otherwise. */
export async function callWithoutBody(request: () => Promise<FetchResult<unknown>>): Promise<void> {
  const sentAt = Date.now();
  let result: FetchResult<unknown>;
  try {
    result = await request();
  } catch {
    throw new ApiFailure('NETWORK_ERROR', 0);
  }
  if (result.response.ok) return;
  throw toApiFailure(result.error, result.response, clockOffsetMs(result.response, sentAt, Date.now()));
}
