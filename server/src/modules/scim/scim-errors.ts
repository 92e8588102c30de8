// SCIM clients expect SCIM's error shape (RFC 7644 section 3.12), not the platform envelope: everything that
// fails under /core/v1/scim is written here, before the platform's error handler would see it.
import type { ErrorRequestHandler, Request } from 'express';
import type { ValidationIssue } from '../../errors';
import type { Logger } from '../../logger';
import { errorHeaders, toApiError } from '../../http/error-handler';
import type { ErrorShape } from '../../http/error-shapes';

export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidValue'
  | 'uniqueness'
  | 'mutability'
  | 'noTarget'
  | 'invalidPath'
  | 'tooMany';

export class ScimFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
    this.name = 'ScimFailure';
  }
}

export const scimBadRequest = (message: string, scimType: ScimType = 'invalidValue') =>
  new ScimFailure(400, message, scimType);
export const scimNotFound = (message: string) => new ScimFailure(404, message);
export const scimConflict = (message: string) => new ScimFailure(409, message, 'uniqueness');

export const scimErrorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** SCIM's error shape for what is answered before Express (http/error-shapes.ts). */
export const scimErrorShape: ErrorShape = {
  prefix: '/core/v1/scim',
  contentType: 'application/scim+json',
  body: (status, detail) => ({ schemas: [scimErrorSchema], status: String(status), detail }),
};

/** A remove without a path (RFC 7644 section 3.5.2.2), whichever operation of a PATCH it is. */
const pathlessRemove = (body: unknown) =>
  Array.isArray((body as { Operations?: unknown })?.Operations) &&
  (body as { Operations: unknown[] }).Operations.some(
    (o) =>
      typeof o === 'object' &&
      o !== null &&
      typeof (o as { op?: unknown }).op === 'string' &&
      (o as { op: string }).op.toLowerCase() === 'remove' &&
      (o as { path?: unknown }).path === undefined,
  );

/**
 * The scimType of a request the contract refused: a filter that is not one is invalidFilter, another query
 * parameter invalidValue (a NUL in `attributes` is no filter), a PATCH refused only for its operations because a
 * remove has no path noTarget, as the service itself answers it; any other body invalidSyntax.
 */
function refineBadRequest(
  req: Request,
  issues: ValidationIssue[],
  detail: string,
): { scimType: ScimType; detail: string } {
  if (issues.some((i) => (i.where === 'query' && i.path === 'filter') || (i.where === 'body' && i.path === '/filter')))
    return { scimType: 'invalidFilter', detail };
  if (issues.some((i) => i.where === 'query')) return { scimType: 'invalidValue', detail };
  if (
    req.method === 'PATCH' &&
    issues.length > 0 &&
    issues.every((i) => i.where === 'body' && i.path.startsWith('/Operations')) &&
    pathlessRemove(req.body)
  )
    return { scimType: 'noTarget', detail: 'remove needs a path' };
  return { scimType: 'invalidSyntax', detail };
}

export function scimErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    let status: number;
    let detail: string;
    let scimType: ScimType | undefined;
    if (error instanceof ScimFailure) {
      ({ status, scimType } = error);
      detail = error.message;
    } else {
      const apiError = toApiError(error);
      status = apiError.httpStatus;
      detail = apiError.issues?.length
        ? apiError.issues
            .map((i) => `${i.where} ${i.path}: ${i.message}`)
            .join('; ')
            .slice(0, 1000)
        : apiError.message;
      if (status === 400) ({ scimType, detail } = refineBadRequest(req, apiError.issues ?? [], detail));
      if (status >= 500 && apiError.code === 'INTERNAL_SERVER_ERROR') {
        const cause = apiError.cause ?? error;
        logger.error(
          {
            requestId: String(req.id ?? ''),
            err: cause instanceof Error ? { message: cause.message, stack: cause.stack } : cause,
          },
          'SCIM request failed',
        );
        detail = `Internal server error (request ${String(req.id ?? '')})`;
      }
      res.set(errorHeaders(apiError));
    }
    res
      .status(status)
      .type('application/scim+json')
      .json({
        schemas: [scimErrorSchema],
        status: String(status),
        ...(scimType ? { scimType } : {}),
        detail: detail.slice(0, 1000),
      });
  };
}
