// Loads the bundled contract (generated/core-api.bundle.json) and derives what the HTTP layer needs from it:
// one document per base path for the validator, and per operation its security and whether it is tenant-scoped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types';

export type OpenApiDocument = OpenAPIV3.DocumentV3 & { paths: Record<string, Record<string, any>> };

export const bundlePath = join(__dirname, '..', '..', '..', 'generated', 'core-api.bundle.json');
export const docsPath = join(__dirname, '..', '..', '..', 'generated', 'docs.html');

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  /** Security scheme names that satisfy the operation; empty means public. */
  security: string[];
  tenantScoped: boolean;
}

export interface ContractView {
  /** Base path → a document containing just that base path's operations. */
  documents: { basePath: string; document: OpenApiDocument }[];
  operations: Map<string, OperationInfo>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

let cached: OpenApiDocument | null = null;
export function loadBundle(): OpenApiDocument {
  cached ??= JSON.parse(readFileSync(bundlePath, 'utf8')) as OpenApiDocument;
  return cached;
}

function resolveParameter(doc: OpenApiDocument, p: any): any {
  if (p && typeof p.$ref === 'string') {
    const name = p.$ref.replace('#/components/parameters/', '');
    return (doc.components?.parameters as Record<string, unknown>)?.[name];
  }
  return p;
}

export function contractView(doc: OpenApiDocument = loadBundle()): ContractView {
  const defaultBase = doc.servers?.[0]?.url ?? '/';
  const byBase = new Map<string, Record<string, any>>();
  const operations = new Map<string, OperationInfo>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const { servers, ...pathItem } = item as { servers?: { url: string }[] } & Record<string, any>;
    const base = servers?.[0]?.url ?? defaultBase;
    // The validator matches on base path + path, so documents must not share a base path prefix:
    // `/core` paths are served from `/core/<first segment>`.
    const [, first, ...rest] = path.split('/');
    const basePath = base === defaultBase ? base : `${base}/${first}`;
    const subPath = base === defaultBase ? path : `/${rest.join('/')}`;
    if (!byBase.has(basePath)) byBase.set(basePath, {});
    byBase.get(basePath)![subPath] = pathItem;
    for (const method of methods) {
      const op = pathItem[method];
      if (!op) continue;
      const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolveParameter(doc, p));
      const security = (op.security ?? doc.security ?? []) as Record<string, unknown>[];
      operations.set(op.operationId, {
        operationId: op.operationId,
        method,
        path: `${base}${path}`,
        security: security.flatMap((s) => Object.keys(s)),
        tenantScoped: params.some((p) => p?.in === 'header' && p?.name === 'cosafe-tenant-id'),
      });
    }
  }
  const documents = [...byBase.entries()].map(([basePath, paths]) => ({
    basePath,
    document: { ...doc, servers: [{ url: basePath }], paths } as OpenApiDocument,
  }));
  return { documents, operations };
}
