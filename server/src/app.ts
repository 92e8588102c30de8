// createApp builds the Express app from the contract; it never listens (main.ts does, tests use supertest).
import { join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import * as OpenApiValidator from 'express-openapi-validator';
import { ApiError } from './errors';
import { dispatch } from './http/dispatch';
import { errorHandler, notFound } from './http/error-handler';
import { literalBracketParams } from './http/literal-bracket-params';
import { rejectNulCharacters } from './http/reject-nul';
import { requestLog } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import { cacheRouteMatchers } from './http/route-matcher-cache';
import type { HandlerMap } from './http/operations';
import { contractView, docsPath } from './http/spec';
import { handlers as defaultHandlers } from './modules/registry';
import type { Services } from './services';
import { devOutboxRouter } from './notify/dev-outbox';
import { scimErrorHandler } from './modules/scim/scim-errors';
import { confirmationRouter } from './modules/external-communication/confirmation-page';

export interface AppOptions {
  handlers?: HandlerMap;
}

export function createApp(services: Services, options: AppOptions = {}): Express {
  const { config, logger } = services;
  const contract = contractView();
  cacheRouteMatchers();
  const app = express();
  app.disable('x-powered-by');
  // API answers are no-store: an ETag (a SHA-1 of every body) would only cost time.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');

  app.use(requestLog(logger));
  app.use(securityHeaders());

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res: Response) => {
    try {
      await withTimeout(services.database.ping(), 2_000);
      res.json({ status: 'ok', region: config.region });
    } catch {
      res.status(503).json(new ApiError('SERVICE_UNAVAILABLE', { message: 'The database is not reachable' }).toBody());
    }
  });
  app.get('/docs', helmet.contentSecurityPolicy({ directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'worker-src': ["'self'", 'blob:'] } }), (_req, res) =>
    res.sendFile(docsPath),
  );
  // Default avatars for users without a picture (User.imageUrls is never null).
  app.use('/assets', express.static(join(__dirname, '..', 'assets'), { immutable: true, maxAge: '7d', fallthrough: true, index: false }));
  if (config.mode !== 'production' && config.notify.transport === 'outbox') app.use('/dev/outbox', devOutboxRouter(services));
  // Confirmation links of external communication messages (outside /core/v1: opened by recipients' browsers).
  app.use('/c', confirmationRouter(services));

  // API answers carry tokens and personal data: never cached by browsers or proxies.
  app.use('/core', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  app.use(
    '/core',
    cors({
      origin: config.corsOrigins,
      allowedHeaders: ['authorization', 'content-type', 'cosafe-core-api-version', 'cosafe-tenant-id', 'x-request-id'],
      exposedHeaders: ['retry-after', 'x-request-id', 'date'],
      maxAge: 600,
    }),
  );
  app.use('/core', express.json({ limit: config.bodyLimit, type: ['application/json', 'application/scim+json'] }), express.urlencoded({ extended: false, limit: '1mb' }));
  app.use('/core', rejectNulCharacters);
  app.use('/core', literalBracketParams(contract.documents[0].document));
  for (const { document } of contract.documents) {
    app.use(
      OpenApiValidator.middleware({
        apiSpec: document as never,
        validateApiSpec: false,
        validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
        validateResponses: config.validateResponses ? { removeAdditional: false } : false,
        validateSecurity: false,
        validateFormats: true,
        ignoreUndocumented: false,
        fileUploader: false,
      }),
    );
  }
  app.use(dispatch(options.handlers ?? defaultHandlers, contract.operations, services));
  app.use('/core/v1/scim', notFound, scimErrorHandler(logger));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

export type { Request };
