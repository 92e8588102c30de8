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
    /**
     * Shed at the door (503 SERVICE_UNAVAILABLE with Retry-After): the server did not process the request, so
     * asking again is safe; the user is told the service is busy.
     */
    readonly shed = false,
  ) {
    super(`${code} (${httpStatus})`);
    this.name = 'ApiFailure';
  }
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  const error = (body as ErrorResponse | null)?.error;
  return (body as ErrorResponse | null)?.status === 'error' && typeof error?.code === 'string';
}

/** Retry-After in ms (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A 503 SERVICE_UNAVAILABLE answer with Retry-After: a request the server refused before doing any of it. */
export function isShed(body: unknown, response: Response): boolean {
  return (
    response.status === 503 &&
    retryAfterMs(response) !== null &&
    (!isErrorResponse(body) || body.error.code === 'SERVICE_UNAVAILABLE')
  );
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
    const shed = isShed(body, response);
    return new ApiFailure(body.error.code, response.status, unavailableUntil, clockOffsetMs, issueRules, shed);
  }
  if (isShed(body, response)) {
    return new ApiFailure('SERVICE_UNAVAILABLE', 503, undefined, clockOffsetMs, [], true);
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

/**
 * Of several rate-limited answers, the one that lets a call through first (those that name no time count last):
 * the moment something can change for the user.
 */
export function earliestUnavailable(failures: readonly ApiFailure[]): ApiFailure {
  const until = (failure: ApiFailure) => Date.parse(failure.unavailableUntil ?? '') || Number.POSITIVE_INFINITY;
  return failures.reduce((earliest, failure) => (until(failure) < until(earliest) ? failure : earliest));
}
