// PostgreSQL text and jsonb cannot hold U+0000, so a NUL anywhere in a request (path, query, body) would fail in
// the database as a 500. It is never meaningful in this API: answer 400 BAD_REQUEST before anything runs.
import type { RequestHandler } from 'express';
import { ApiError, type ValidationIssue } from '../errors';

/**
 * JSON pointer of the first string (or key) holding a NUL, walked without recursion (bodies may nest deeply).
 * Each entry keeps its parent and key; the pointer is spelled out only for the value found.
 */
function nulAt(root: unknown): string | null {
  type Entry = { value: unknown; parent: Entry | null; key: string };
  const pointer = (entry: Entry, last?: string) => {
    const keys = last === undefined ? [] : [last];
    for (let at: Entry | null = entry; at?.parent; at = at.parent) keys.push(at.key);
    return keys
      .reverse()
      .map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      .join('');
  };
  const stack: Entry[] = [{ value: root, parent: null, key: '' }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value } = entry;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pointer(entry) || '/';
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (key.includes('\u0000')) return pointer(entry, key);
        stack.push({ value: (value as Record<string, unknown>)[key], parent: entry, key });
      }
    }
  }
  return null;
}

export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const issue = (where: ValidationIssue['where'], path: string): ValidationIssue => ({
    where,
    path: path.slice(0, 500),
    message: 'must not contain the NUL character (U+0000)',
  });
  const path = req.originalUrl.split('?')[0];
  let found: ValidationIssue | null = /%00/i.test(path) ? issue('path', path) : null;
  const inQuery = found ? null : nulAt(req.query);
  if (inQuery) found = issue('query', inQuery.slice(1));
  const inBody = found ? null : nulAt(req.body);
  if (inBody) found = issue('body', inBody);
  next(
    found
      ? new ApiError('BAD_REQUEST', { message: 'The request contains a NUL character', issues: [found] })
      : undefined,
  );
};
