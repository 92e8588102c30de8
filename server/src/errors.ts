import type { components } from '../../generated/core-api';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ValidationIssue = components['schemas']['ValidationIssue'];
export type ErrorBody = components['schemas']['ErrorResponse'];

/** The one table of code → HTTP status (spec section 8; shown in the API description). */
export const httpStatusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  MFA_REQUIRED_BUT_NOT_ENABLED: 400,
  INVALID_SSO_CONFIGURATION: 400,
  INVALID_REDIRECT_URI: 400,
  SSO_CHALLENGE_EXPIRED: 400,
  AUTHORIZATION_CODE_NOT_FOUND: 400,
  PERSONAL_ALARM_NOT_FOUND_RECIPIENTS: 400,
  USER_PASSWORD_SET_TOKEN_INVALID: 400,
  PASSKEY_CHALLENGE_EXPIRED: 400,
  PASSKEY_REGISTRATION_FAILED: 400,
  PASSKEY_NOT_REGISTERED: 400,
  UNAUTHORIZED: 401,
  EXPIRED_ACCESS_TOKEN: 401,
  INVALID_AUTHORIZATION_HEADER: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SESSION_ID: 401,
  INVALID_REFRESH_TOKEN: 401,
  EXPIRED_REFRESH_TOKEN: 401,
  INVALID_SESSION: 401,
  MFA_TOKEN_EXPIRED: 401,
  INVALID_SSO_AUTHORIZATION_CODE: 401,
  INVALID_SSO_ID_TOKEN: 401,
  REAUTHENTICATION_REQUIRED: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_PRIVILEGES: 403,
  SKOLON_USER_NOT_TEACHER: 403,
  COALERT_CODE_USAGE_LIMIT_REACHED: 403,
  CEC_MESSAGE_GROUP_FORBIDDEN: 403,
  NOT_FOUND: 404,
  PERSONAL_ALARM_NOT_FOUND: 404,
  CEC_MESSAGE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  LIMIT_REACHED: 409,
  PERSONAL_ALARM_CONFLICT: 409,
  USER_PASSWORD_ALREADY_SET: 409,
  CEC_TENANT_CONFIGURATION_INCOMPLETE: 409,
  USER_PASSWORD_SET_TOKEN_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
};

const defaultMessages: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'The request does not match the contract',
  UNAUTHORIZED: 'Authorization is required',
  FORBIDDEN: 'Not allowed',
  NOT_FOUND: 'Not found',
  INTERNAL_SERVER_ERROR: 'Internal server error',
  NOT_IMPLEMENTED: 'This operation is not available yet',
  TOO_MANY_REQUESTS: 'Too many attempts',
};

export interface ApiErrorOptions {
  message?: string;
  issues?: ValidationIssue[];
  unavailableUntil?: Date;
  cause?: unknown;
  /** The methods the path has, for 405 (sent as `Allow`, RFC 9110 section 15.5.6). */
  allow?: string[];
  /** On a quota a tenant administrator can lift: who to ask (sent as `administrators`). */
  administrators?: { name: string; email: string }[];
}

/** Thrown anywhere; the error middleware writes it as the spec's envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly issues?: ValidationIssue[];
  readonly unavailableUntil?: Date;
  readonly allow?: string[];
  readonly administrators?: { name: string; email: string }[];

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? defaultMessages[code] ?? code, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatusOf[code];
    this.issues = options.issues;
    this.unavailableUntil = options.unavailableUntil;
    this.allow = options.allow;
    this.administrators = options.administrators;
  }

  toBody(requestId?: string): ErrorBody {
    return {
      status: 'error',
      error: {
        httpStatus: this.httpStatus,
        code: this.code,
        message: this.message,
        ...(this.issues ? { issues: this.issues } : {}),
        ...(this.unavailableUntil ? { unavailableUntil: this.unavailableUntil.toISOString() } : {}),
        ...(this.administrators ? { administrators: this.administrators } : {}),
        ...(requestId && this.httpStatus >= 500 ? { requestId } : {}),
      },
    };
  }
}

export function tooManyRequests(unavailableUntil: Date, message?: string): ApiError {
  return new ApiError('TOO_MANY_REQUESTS', { unavailableUntil, message });
}
