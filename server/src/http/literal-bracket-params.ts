// express-openapi-validator 5.6 turns every query key with brackets into a nested object (qs), so the contract's
// literal names (`name[match]`, `function[in]`, `membersCount[gte]`, `content[match]`) fail as "Unknown query
// parameter 'name'". It means to leave names the operation declares alone, but looks for the operation at
// `req.query._openapi`, which nothing sets (cdimascio/express-openapi-validator#1115), and does not resolve $ref
// parameters. This puts the matched operation there, parameters resolved, as a non-enumerable property (so it is
// never seen as a query parameter). Remove once the validator reads `req.openapi` itself.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import type { OpenApiDocument } from './spec';

type Parameter = { $ref?: string; name?: string; in?: string };

const requestOf = Symbol('request');

export function literalBracketParams(doc: OpenApiDocument): RequestHandler {
  const components = (doc.components?.parameters ?? {}) as Record<string, Parameter>;
  const resolve = (p: Parameter) =>
    typeof p.$ref === 'string' ? (components[p.$ref.replace('#/components/parameters/', '')] ?? p) : p;
  // Every bracketed name the contract declares; the validator turns any other one into a nested object and, for
  // array parameters, then crashes on it (`externalCommunicationGroupIds[$gt]=1` answered 500): refuse those here.
  const literalNames = new Set(
    [
      ...Object.values(components),
      ...Object.values(doc.paths).flatMap((item: any) =>
        [item.parameters ?? [], ...Object.values(item).map((op: any) => op?.parameters ?? [])].flat(),
      ),
    ]
      .map((p: Parameter) => resolve(p)?.name)
      .filter((name): name is string => typeof name === 'string' && /[[\]]/.test(name)),
  );
  // One getter for every request, reading the request from the query object: a getter made per request would
  // give each query object a map of its own (V8 keeps accessors in the map), and that map, made in the old
  // generation, would keep the whole request alive through every young-generation collection.
  // The operation with its parameters resolved, made once per operation (the contract does not change).
  const resolved = new WeakMap<object, { schema: object }>();
  function matchedOperation(this: { [requestOf]?: { openapi?: { schema?: { parameters?: Parameter[] } } } }) {
    const schema = this[requestOf]?.openapi?.schema;
    if (!schema) return undefined;
    let operation = resolved.get(schema);
    if (!operation)
      resolved.set(schema, (operation = { schema: { ...schema, parameters: (schema.parameters ?? []).map(resolve) } }));
    return operation;
  }
  return (req, _res, next) => {
    const query = req.query as Record<string, unknown>;
    const unknown = Object.keys(query).find((key) => /[[\]]/.test(key) && !literalNames.has(key));
    if (unknown)
      return next(
        new ApiError('BAD_REQUEST', {
          issues: [
            {
              where: 'query',
              path: unknown.slice(0, 500),
              message: `Unknown query parameter '${unknown.slice(0, 200)}'`,
            },
          ],
        }),
      );
    Object.defineProperty(query, requestOf, { value: req, enumerable: false, configurable: true });
    Object.defineProperty(query, '_openapi', { enumerable: false, configurable: true, get: matchedOperation });
    // Express 5 parses req.query anew on every read; keep this one object for the validator to work on.
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
