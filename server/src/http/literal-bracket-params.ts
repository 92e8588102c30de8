// express-openapi-validator 5.6 turns every query key with brackets into a nested object (qs), so the contract's
// literal names (`name[match]`, `function[in]`, `membersCount[gte]`, `content[match]`) fail as "Unknown query
// parameter 'name'". It means to leave names the operation declares alone, but looks for the operation at
// `req.query._openapi`, which nothing sets (cdimascio/express-openapi-validator#1115), and does not resolve $ref
// parameters. This puts the matched operation there, parameters resolved, as a non-enumerable property (so it is
// never seen as a query parameter). Remove once the validator reads `req.openapi` itself.
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './spec';

type Parameter = { $ref?: string; name?: string; in?: string };

export function literalBracketParams(doc: OpenApiDocument): RequestHandler {
  const components = (doc.components?.parameters ?? {}) as Record<string, Parameter>;
  const resolve = (p: Parameter) => (typeof p.$ref === 'string' ? (components[p.$ref.replace('#/components/parameters/', '')] ?? p) : p);
  return (req, _res, next) => {
    const query = req.query as Record<string, unknown>;
    Object.defineProperty(query, '_openapi', {
      enumerable: false,
      configurable: true,
      get: () => {
        const schema = (req as { openapi?: { schema?: { parameters?: Parameter[] } } }).openapi?.schema;
        return schema && { schema: { ...schema, parameters: (schema.parameters ?? []).map(resolve) } };
      },
    });
    // Express 5 parses req.query anew on every read; keep this one object for the validator to work on.
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
