import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Services } from '../services';
import { authenticate, type AuthContext } from './auth';
import type { HandlerContext, HandlerMap, OperationId } from './operations';
import type { OperationInfo } from './spec';
import { authenticateScimKey } from '../modules/scim/scim-auth';

interface OpenApiRequest extends Request {
  openapi?: { schema: { operationId: string }; pathParams: Record<string, unknown> };
}

/** Runs the handler of the operation the validator matched: auth, tenant, then the typed handler. */
export function dispatch(handlers: HandlerMap, operations: Map<string, OperationInfo>, services: Services): RequestHandler {
  return async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    if (!req.openapi) return next();
    const operationId = req.openapi.schema.operationId as OperationId;
    const info = operations.get(operationId);
    const handler = handlers[operationId] as unknown as (ctx: HandlerContext<OperationId>) => Promise<any>;
    if (!info || !handler) return next();
    try {
      let auth: AuthContext | null = null;
      let tenantId: number | null = null;
      if (info.security.includes('accessToken')) {
        const { tenantId: tenant, ...context } = await authenticate(req, services, operationId, info.tenantScoped);
        [auth, tenantId] = [context, tenant];
      }
      // SCIM: the tenant's api key is the only credential, and it names the tenant.
      if (info.security.includes('scimApiKey')) tenantId = await authenticateScimKey(req, services);
      const result = await handler({
        path: req.openapi.pathParams as never,
        query: req.query as never,
        body: req.body as never,
        auth,
        tenantId,
        services,
        req,
        res,
      });
      if (result.headers) res.set(result.headers);
      res.status(result.status);
      if (!('body' in result)) return void res.end();
      if (result.contentType && result.contentType !== 'application/json') return void res.type(result.contentType).send(result.body);
      res.json(result.body);
    } catch (error) {
      next(error);
    }
  };
}
