import type { components } from '../../../generated/core-api';

export type ErrorCode = components['schemas']['ErrorCode'];
type ErrorResponse = components['schemas']['ErrorResponse'];

/** NETWORK_ERROR: no answer at all; UNEXPECTED_RESPONSE: an answer that is neither the success body nor the error envelope. */
export type FailureCode = ErrorCode | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

/** A failed API call, reduced to what the UI needs: a stable code (never the server's English). */
export class ApiFailure extends Error {
  constructor(
    readonly code: FailureCode,
    readonly httpStatus: number,
    /** Server time (ISO 8601) from which the call may be made again; on 429 answers. */
    readonly unavailableUntil?: string,
    /** Server clock minus client clock in ms, measured on the failed answer. */
    readonly clockOffsetMs = 0,
    /** The `rule` of each issue of a BAD_REQUEST answer that names one (PASSWORD_TOO_SHORT…), in the server's order. */
    readonly issueRules: readonly string[] = [],
  ) {
    super(`${code} (${httpStatus})`);
    this.name = 'ApiFailure';
  }
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  const error = (body as ErrorResponse | null)?.error;
  return (body as ErrorResponse | null)?.status === 'error' && typeof error?.code === 'string';
}

function retryAfterAsInstant(response: Response, serverNow: number): string | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? new Date(serverNow + seconds * 1000).toISOString() : undefined;
}

export function toApiFailure(body: unknown, response: Response, clockOffsetMs: number): ApiFailure {
  const serverNow = Date.now() + clockOffsetMs;
  if (isErrorResponse(body)) {
    const unavailableUntil =
      body.error.unavailableUntil ?? (response.status === 429 ? retryAfterAsInstant(response, serverNow) : undefined);
    const issueRules = (body.error.issues ?? []).flatMap((issue) =>
      typeof issue?.rule === 'string' ? [issue.rule] : [],
    );
    return new ApiFailure(body.error.code, response.status, unavailableUntil, clockOffsetMs, issueRules);
  }
  if (response.status === 429) {
    return new ApiFailure('TOO_MANY_REQUESTS', 429, retryAfterAsInstant(response, serverNow), clockOffsetMs);
  }
  return new ApiFailure('UNEXPECTED_RESPONSE', response.status, undefined, clockOffsetMs);
}

/** Anything thrown during a call as an ApiFailure (a missing Web Crypto, say, counts as a failure to reach the API). */
export function asFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  console.error(error);
  return new ApiFailure('NETWORK_ERROR', 0);
}

/** Of several rate-limited answers, the one that asks to wait longest. */
export function latestUnavailable(failures: readonly ApiFailure[]): ApiFailure {
  const until = (failure: ApiFailure) => Date.parse(failure.unavailableUntil ?? '') || 0;
  return failures.reduce((latest, failure) => (until(failure) > until(latest) ? failure : latest));
}
