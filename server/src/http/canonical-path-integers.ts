// Path parameters are coerced from text (ajv coerceTypes), and ajv reads "1.0", "01", "1e3", "+1" and " 1" all as
// numbers: one resource would answer to many spellings of its id (cache keys, audit entries and rate-limit keys
// that disagree). This runs after the validator matched the operation and before it coerces: an integer path
// parameter must be written as a plain decimal without sign, leading zeros, exponent or spaces.
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import type { OpenApiDocument } from './spec';

type Schema = { $ref?: string; type?: string | string[] };
type Parameter = { $ref?: string; name?: string; in?: string; schema?: Schema };

const canonical = /^(0|[1-9][0-9]*)$/;

export function canonicalPathIntegers(doc: OpenApiDocument): RequestHandler {
  const parameters = (doc.components?.parameters ?? {}) as Record<string, Parameter>;
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const resolveParameter = (p: Parameter) =>
    p.$ref ? (parameters[p.$ref.replace('#/components/parameters/', '')] ?? p) : p;
  const resolveSchema = (s: Schema | undefined): Schema | undefined =>
    s?.$ref ? resolveSchema(schemas[s.$ref.replace('#/components/schemas/', '')]) : s;
  const isInteger = (s: Schema | undefined) => {
    const type = resolveSchema(s)?.type;
    return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  };
  // Per operation (the schema object the validator matched): the names of its integer path parameters.
  const integerNames = new WeakMap<object, string[]>();
  return (req, _res, next) => {
    const openapi = (
      req as typeof req & { openapi?: { schema?: { parameters?: Parameter[] }; pathParams?: Record<string, unknown> } }
    ).openapi;
    if (!openapi?.schema || !openapi.pathParams) return next();
    let names = integerNames.get(openapi.schema);
    if (!names) {
      names = (openapi.schema.parameters ?? [])
        .map(resolveParameter)
        .filter((p) => p.in === 'path' && p.name && isInteger(p.schema))
        .map((p) => p.name!);
      integerNames.set(openapi.schema, names);
    }
    for (const name of names) {
      const value = openapi.pathParams[name];
      if (typeof value === 'string' && !canonical.test(value)) {
        return next(
          new ApiError('BAD_REQUEST', {
            issues: [{ where: 'path', path: name, message: 'must be an integer written in plain decimal digits' }],
          }),
        );
      }
    }
    next();
  };
}
