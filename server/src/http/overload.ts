// Oversized bodies, answered before any work is done: a body whose Content-Length exceeds the limit is answered
// 413 from its headers, before it is sent (body parsing would read, and wait for, the whole body first), and the
// connection is closed after it. (Overload is admission control's, at the door: admission.ts.)
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';

/** '100kb', '1mb', '512' → bytes. */
export function parseByteLimit(limit: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`not a byte size: ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

export function rejectOversizedBodies(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.headers['content-length']);
    if (!Number.isFinite(length) || length <= limitBytes) return next();
    res.set('Connection', 'close');
    // Answered by the error handlers, so that each part of the API answers in its own shape (SCIM's for SCIM).
    next(new ApiError('PAYLOAD_TOO_LARGE', { message: 'The body is too large' }));
  };
}
