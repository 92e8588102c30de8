// The per-request query bookkeeping adds no accessor of its own: one made per request kept each request's
// objects alive through young-generation collections (src/http/literal-bracket-params.ts).
import type { Request, Response } from 'express';
import { literalBracketParams } from '../../src/http/literal-bracket-params';
import { loadBundle } from '../../src/http/spec';

test('the matched operation is read through one getter shared by every request', () => {
  const middleware = literalBracketParams(loadBundle());
  const getters = [1, 2].map((n) => {
    const req = {
      query: { 'name[match]': `x${n}` },
      openapi: { schema: { operationId: `op${n}`, parameters: [] } },
    } as unknown as Request;
    let error: unknown = 'not called';
    middleware(req, {} as Response, (e?: unknown) => void (error = e));
    expect(error).toBeUndefined();
    const descriptor = Object.getOwnPropertyDescriptor(req.query, '_openapi')!;
    expect(descriptor.enumerable).toBe(false);
    expect(Object.keys(req.query)).toEqual(['name[match]']);
    expect((req.query as { _openapi?: { schema: { operationId: string } } })._openapi?.schema.operationId).toBe(
      `op${n}`,
    );
    return descriptor.get;
  });
  expect(getters[0]).toBe(getters[1]);
});
