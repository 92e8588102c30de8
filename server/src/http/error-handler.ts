import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { ApiError, type ValidationIssue } from '../errors';
import type { Logger } from '../logger';

interface ValidatorError extends Error {
  status?: number;
  headers?: { Allow?: string };
  errors?: { path?: string; message?: string }[];
}

const whereOf: Record<string, ValidationIssue['where']> = {
  body: 'body',
  query: 'query',
  path: 'path',
  params: 'path',
  headers: 'header',
  header: 'header',
};

function issuesOf(error: ValidatorError): ValidationIssue[] {
  const issues = (error.errors ?? []).slice(0, 100).map((e) => {
    const message = (e.message ?? 'is not valid').slice(0, 1000);
    const segments = (e.path ?? '').replace(/^\./, '/').replace(/\./g, '/').split('/').slice(1);
    const known = whereOf[segments[0] ?? ''];
    // The discriminator check reports the request's URL as its path; the property it names is the pointer.
    if (!known && (e.path ?? '').startsWith('/') && /^'[^']+' (must|should)/.test(message)) {
      return { where: 'body' as const, path: `/${/^'([^']+)'/.exec(message)![1]}`, message };
    }
    // The validator prefixes most paths with the request part; body paths inside oneOf come without it.
    const where = known ?? 'body';
    const rest = known ? segments.slice(1) : segments;
    return { where, path: where === 'body' ? `/${rest.join('/')}` : rest.join('/'), message };
  });
  return collapseOneOf(issues);
}

const oneOfSummary = 'must match exactly one schema in oneOf';
const missingProperty = /^must have required property '([^']+)'$/;

/**
 * ajv reports a failed `oneOf` with every branch's errors: a body that chose the `otpEmail` shape and wrote a bad
 * code got five issues about the shapes it did not choose and a sixth summary. This keeps what helps: the errors
 * of the chosen shape (those not about a missing property the shape requires); when no shape was chosen, one issue
 * naming the properties that choose one; when every branch failed at the field itself (a value that is neither of
 * two kinds), one issue at that field.
 */
function collapseOneOf(issues: ValidationIssue[]): ValidationIssue[] {
  const summaries = issues.filter((i) => i.message === oneOfSummary);
  if (summaries.length === 0) return issues;
  let result = issues;
  for (const summary of summaries) {
    const base = summary.path === '/' ? '' : summary.path;
    const inside = (i: ValidationIssue) =>
      i.where === summary.where && (i.path === summary.path || i.path.startsWith(`${base}/`));
    const branch = result.filter((i) => i !== summary && inside(i));
    const choosers = branch.filter(
      (i) => missingProperty.test(i.message) && i.path === `${base}/${missingProperty.exec(i.message)![1]}`,
    );
    const chosen = branch.filter((i) => !choosers.includes(i));
    let replacement: ValidationIssue[];
    if (chosen.length > 0 && chosen.every((i) => i.path === summary.path) && choosers.length === 0) {
      replacement = [
        {
          ...summary,
          message: `must match one of: ${[...new Set(chosen.map((i) => i.message))].join('; ')}`.slice(0, 1000),
        },
      ];
    } else if (chosen.length > 0) {
      replacement = chosen;
    } else {
      const names = choosers.map((i) => missingProperty.exec(i.message)![1]);
      replacement = [
        { ...summary, message: `must have exactly one of the properties ${[...new Set(names)].join(', ')}` },
      ];
    }
    const first = result.findIndex((i) => i === summary || branch.includes(i));
    result = result.filter((i) => i !== summary && !branch.includes(i));
    result.splice(Math.max(0, Math.min(first, result.length)), 0, ...replacement);
  }
  return result;
}

/** Maps anything thrown to the API's error codes. Unknown failures become INTERNAL_SERVER_ERROR. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as ValidatorError & { type?: string; statusCode?: number };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError('BAD_REQUEST', {
        message: 'The body is not valid JSON',
        issues: [{ where: 'body', path: '/', message: 'Malformed JSON' }],
      });
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE', { message: 'The body is too large' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  }
  // express-openapi-validator errors carry a status; a 500 from it means a response broke the contract.
  switch (e?.status) {
    case 400:
      return new ApiError('BAD_REQUEST', { issues: issuesOf(e) });
    case 404:
      return new ApiError('NOT_FOUND');
    case 405:
      return new ApiError('METHOD_NOT_ALLOWED', { message: 'Method not allowed', allow: allowedMethods(e) });
    case 413:
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 415:
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported media type' });
  }
  if (isDatabaseUnavailable(error))
    return new ApiError('SERVICE_UNAVAILABLE', {
      message: 'The service is briefly unavailable; try again',
      cause: error,
    });
  return new ApiError('INTERNAL_SERVER_ERROR', { cause: error });
}

const methodOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** The validator names the path's methods in lower case, in the contract's order; Allow lists them as written. */
const allowedMethods = (error: ValidatorError) =>
  (error.headers?.Allow ?? '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean)
    .sort((a, b) => methodOrder.indexOf(a) - methodOrder.indexOf(b));

/** Headers an error carries whatever its shape: Allow with 405 and Retry-After with a wait. */
export function errorHeaders(apiError: ApiError): Record<string, string> {
  return {
    ...(apiError.allow ? { Allow: apiError.allow.join(', ') } : {}),
    ...(apiError.unavailableUntil
      ? { 'Retry-After': String(Math.max(0, Math.ceil((apiError.unavailableUntil.getTime() - Date.now()) / 1000))) }
      : {}),
  };
}

/** The database cannot be reached (down, restarting, connection lost): the client should retry, not report a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) ||
    code.startsWith('08') ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(message)
  );
}

/**
 * Lets a module sharpen the error of one of its own operations before it is answered (the passwords module turns a
 * new password's schema failure into one issue per policy rule). Registered by the composition root, so http/ knows
 * no module.
 */
export type ErrorRefiner = (error: ApiError, req: Request) => ApiError;

export function errorHandler(logger: Logger, refiners: readonly ErrorRefiner[] = []): ErrorRequestHandler {
  return (error, req: Request, res, next) => {
    const apiError = refiners.reduce((current, refine) => refine(current, req), toApiError(error));
    const requestId = String(req.id ?? '');
    if (apiError.httpStatus >= 500 && apiError.code !== 'NOT_IMPLEMENTED' && apiError.code !== 'SERVICE_UNAVAILABLE') {
      const cause = apiError.cause ?? error;
      logger.error(
        {
          requestId,
          err: cause instanceof Error ? { message: cause.message, stack: cause.stack, name: cause.name } : cause,
        },
        'request failed',
      );
    }
    if (res.headersSent) return next(error);
    res.set(errorHeaders(apiError));
    res.status(apiError.httpStatus).json(apiError.toBody(requestId));
  };
}

export const notFound: RequestHandler = (_req, _res, next) =>
  next(new ApiError('NOT_FOUND', { message: 'No such route' }));
