// Routing is strict and case-sensitive: a path under /core is the contract's path exactly as written, or 404
// NOT_FOUND before anything else runs (no body is read, no handler runs). Express and the validator would otherwise
// take `/core/v1/sessions/` or `/CORE/V1/SESSIONS` as the sign-in, which the door (admission.ts), matching exactly,
// does not: the work class of a request comes from the operation the router runs, and only exact spellings run one.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import { isContractPath } from './admission';

export const strictRoutes: RequestHandler = (req, _res, next) => {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  next(isContractPath(query === -1 ? url : url.slice(0, query)) ? undefined : new ApiError('NOT_FOUND'));
};
