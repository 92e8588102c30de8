// The bundled contract (generated/core-api.bundle.json) as a list of operations with their parameters, bodies and
// responses resolved, for the suites that walk every operation (fuzzing, tenant isolation).
import { loadBundle } from '../../../src/http/spec';

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** A query array's form: repeated (`kind=a&kind=b`, the default) or comma-joined (`explode: false`). */
  explode: boolean;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  /** The path as the contract writes it, e.g. /users/{userId}. */
  path: string;
  /** Where the path is mounted: /core/v1, or /core for the SAML endpoints. */
  base: string;
  parameters: Parameter[];
  body: { contentType: string; schema: Schema; examples: unknown[] } | null;
  security: string[];
  tenantScoped: boolean;
  /** Status (or 'default') → JSON schema of the body, null when the answer has none. */
  responses: Record<string, { contentType: string; schema: Schema } | null>;
}

const methods = ['get', 'put', 'post', 'patch', 'delete'] as const;
const doc = loadBundle() as any;

/** Follows one local `$ref` (and a chain of them). */
export function deref<T = Schema>(value: any): T {
  let current = value;
  for (let i = 0; current && typeof current.$ref === 'string' && i < 20; i++) {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current as T;
}

function examplesOf(media: any): unknown[] {
  const out: unknown[] = [];
  if (media.example !== undefined) out.push(media.example);
  for (const e of Object.values(media.examples ?? {})) out.push(deref<any>(e).value);
  const schema = deref(media.schema);
  for (const e of schema?.examples ?? []) out.push(e);
  return out;
}

let cached: Operation[] | null = null;

export function operations(): Operation[] {
  if (cached) return cached;
  const defaultBase = doc.servers[0].url as string;
  const list: Operation[] = [];
  for (const [path, rawItem] of Object.entries<any>(doc.paths)) {
    const item = rawItem;
    const base = item.servers?.[0]?.url ?? defaultBase;
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => {
        const resolved = deref<any>(p);
        return {
          name: resolved.name,
          in: resolved.in,
          required: Boolean(resolved.required),
          explode: resolved.explode ?? (resolved.style ?? 'form') === 'form',
          schema: deref(resolved.schema),
        } as Parameter;
      });
      let body: Operation['body'] = null;
      if (op.requestBody) {
        const content = deref<any>(op.requestBody).content as Record<string, any>;
        const contentType = Object.keys(content).find((c) => c === 'application/json') ?? Object.keys(content)[0];
        body = { contentType, schema: deref(content[contentType].schema), examples: examplesOf(content[contentType]) };
      }
      const responses: Operation['responses'] = {};
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const content = deref<any>(r).content as Record<string, any> | undefined;
        const contentType = content ? Object.keys(content)[0] : undefined;
        responses[status] = contentType ? { contentType, schema: deref(content![contentType].schema) } : null;
      }
      const security = ((op.security ?? doc.security ?? []) as Record<string, unknown>[]).flatMap((s) =>
        Object.keys(s),
      );
      list.push({
        operationId: op.operationId,
        method,
        path,
        base,
        parameters,
        body,
        security,
        tenantScoped: parameters.some((p) => p.in === 'header' && p.name === 'cosafe-tenant-id'),
        responses,
      });
    }
  }
  cached = list;
  return list;
}

export const bundle = () => doc;
