// /core/v1/openapi.json: the bundled contract (generated/core-api.bundle.json), the one document to generate clients
// from. It is self-contained: every $ref and discriminator mapping points into it, where the multi-file source in
// openapi/ (for editing) has relative files that some generators resolve wrongly. Outside the contract's operations
// (like /docs): no version header, no authentication; read once, answered with a validator for revalidation.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RequestHandler } from 'express';

export function contractDocumentRoute(path: string): RequestHandler {
  let loaded: Promise<{ body: Buffer; etag: string }> | null = null;
  const load = async () => {
    const body = await readFile(path);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
  };
  return async (req, res, next) => {
    try {
      loaded ??= load().catch((error: unknown) => {
        loaded = null;
        throw error;
      });
      const { body, etag } = await loaded;
      res.set({ 'Cache-Control': 'no-cache', ETag: etag });
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.type('application/json').send(body);
    } catch (error) {
      next(error);
    }
  };
}
