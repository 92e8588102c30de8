import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { ApiError, type ValidationIssue } from '../errors';
import type { Logger } from '../logger';
import { passwordPolicyIssues } from '../modules/passwords/policy';

interface ValidatorError extends Error {
  status?: number;
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
  return (error.errors ?? []).slice(0, 100).map((e) => {
    const segments = (e.path ?? '').replace(/^\./, '/').replace(/\./g, '/').split('/').slice(1);
    const known = whereOf[segments[0] ?? ''];
    // The validator prefixes most paths with the request part; body paths inside oneOf come without it.
    const where = known ?? 'body';
    const rest = known ? segments.slice(1) : segments;
    return { where, path: where === 'body' ? `/${rest.join('/')}` : rest.join('/'), message: (e.message ?? 'is not valid').slice(0, 1000) };
  });
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
      return new ApiError('METHOD_NOT_ALLOWED', { message: 'Method not allowed' });
    case 413:
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 415:
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported media type' });
  }
  if (isDatabaseUnavailable(error)) return new ApiError('SERVICE_UNAVAILABLE', { message: 'The service is briefly unavailable; try again', cause: error });
  return new ApiError('INTERNAL_SERVER_ERROR', { cause: error });
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

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req: Request, res, next) => {
    const apiError = refineNewPasswordIssues(toApiError(error), req);
    const requestId = String(req.id ?? '');
    if (apiError.httpStatus >= 500 && apiError.code !== 'NOT_IMPLEMENTED' && apiError.code !== 'SERVICE_UNAVAILABLE') {
      const cause = apiError.cause ?? error;
      logger.error({ requestId, err: cause instanceof Error ? { message: cause.message, stack: cause.stack, name: cause.name } : cause }, 'request failed');
    }
    if (res.headersSent) return next(error);
    if (apiError.unavailableUntil) {
      res.set('Retry-After', String(Math.max(0, Math.ceil((apiError.unavailableUntil.getTime() - Date.now()) / 1000))));
    }
    res.status(apiError.httpStatus).json(apiError.toBody(requestId));
  };
}

/** Fields that carry a new password: their schema failure becomes one issue per broken policy rule. */
const newPasswordFields: Record<string, string> = { setPassword: 'password', resetPassword: 'newPassword' };

function refineNewPasswordIssues(error: ApiError, req: Request): ApiError {
  const operationId = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
  const field = operationId ? newPasswordFields[operationId] : undefined;
  const value = field ? (req.body as Record<string, unknown> | undefined)?.[field] : undefined;
  if (error.code !== 'BAD_REQUEST' || !field || typeof value !== 'string' || !error.issues?.some((i) => i.path === `/${field}`)) return error;
  const policy = passwordPolicyIssues(value, `/${field}`);
  if (policy.length === 0) return error;
  return new ApiError('BAD_REQUEST', { message: error.message, issues: [...error.issues.filter((i) => i.path !== `/${field}`), ...policy] });
}

export const notFound: RequestHandler = (_req, _res, next) => next(new ApiError('NOT_FOUND', { message: 'No such route' }));
