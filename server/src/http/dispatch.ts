import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticate, type AuthDeps } from './auth';
import { runInHandlerSpan } from './handler-span';
import type { SessionCaller } from '../shared/caller';
import type { HandlerContext, HandlerMap, OperationId } from './operations';
import type { OperationInfo } from './spec';

interface OpenApiRequest extends Request {
  openapi?: { schema: { operationId: string }; pathParams: Record<string, unknown> };
}

/**
 * Authenticators of the contract's credential schemes other than the access token, by scheme name; each answers the
 * tenant its credential names. Modules provide them (SCIM's api key) and the composition root registers them,
 * handing each its module's ports (modules/registry.ts).
 */
export type CredentialSchemes = Record<string, (req: Request) => Promise<number>>;

/** Runs the handler of the operation the validator matched: auth, tenant, then the typed handler. */
export function dispatch(
  handlers: HandlerMap,
  operations: Map<string, OperationInfo>,
  services: AuthDeps,
  schemes: CredentialSchemes = {},
): RequestHandler {
  return async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    const openapi = req.openapi;
    if (!openapi) return next();
    const operationId = openapi.schema.operationId as OperationId;
    const info = operations.get(operationId);
    const handler = handlers[operationId] as unknown as (ctx: HandlerContext<OperationId>) => Promise<any>;
    if (!info || !handler) return next();
    try {
      // One span per operation when tracing is on (http/handler-span.ts): its statements hang under it.
      await runInHandlerSpan(operationId, async () => {
        // Bound to a user for every operation but a pending session's own (authenticate sees to it).
        let auth: SessionCaller | null = null;
        let tenantId: number | null = null;
        if (info.security.includes('accessToken')) {
          const { tenantId: tenant, ...context } = await authenticate(req, services, operationId, info.tenantScoped);
          [auth, tenantId] = [context, tenant];
        }
        // SCIM: the tenant's api key is the only credential, and it names the tenant.
        for (const scheme of info.security) {
          const authenticateScheme = Object.hasOwn(schemes, scheme) ? schemes[scheme] : undefined;
          if (authenticateScheme) tenantId = await authenticateScheme(req);
        }
        const result = await handler({
          path: openapi.pathParams as never,
          query: req.query as never,
          body: req.body as never,
          auth,
          tenantId,
          req,
          res,
        });
        if (result.headers) res.set(result.headers);
        res.status(result.status);
        if (!('body' in result)) return void res.end();
        if (result.contentType && result.contentType !== 'application/json')
          return void res.type(result.contentType).send(result.body);
        res.json(result.body);
      });
    } catch (error) {
      next(error);
    }
  };
}
