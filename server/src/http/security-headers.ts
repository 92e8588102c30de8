// helmet's default headers. With no nonces or per-request directives none of them depends on the request, so
// they are worked out once, by running helmet against a recorder, and set in one step: helmet itself runs its
// twelve middlewares on every request (about a tenth of a millisecond of CPU each time).
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

export function securityHeaders(options?: HelmetOptions): RequestHandler {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => void (set.set(name, String(value)), removed.delete(name.toLowerCase())),
    removeHeader: (name: string) => void (removed.add(name.toLowerCase()), set.delete(name)),
  };
  let failure: unknown;
  let finished = false;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
    finished = true;
  });
  // helmet's defaults answer synchronously; anything else would depend on the request and cannot be fixed here.
  if (!finished || failure) throw new Error('helmet options that depend on the request cannot be set once', { cause: failure });
  const headers = [...set];
  const removals = [...removed];
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const name of removals) res.removeHeader(name);
    next();
  };
}
