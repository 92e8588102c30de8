// createApp builds the Express app from the contract; it never listens (main.ts does, tests use supertest).
import { join } from 'node:path';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import * as OpenApiValidator from 'express-openapi-validator';
import { ApiError } from './errors';
import { dispatch } from './http/dispatch';
import { errorHandler, notFound } from './http/error-handler';
import { limitStreamedBody } from './http/body-limit';
import { canonicalPathIntegers } from './http/canonical-path-integers';
import { isDraining } from './http/drain';
import { literalBracketParams } from './http/literal-bracket-params';
import { metricsRoute, requestMetrics } from './http/metrics-route';
import { parseByteLimit, rejectOversizedBodies } from './http/overload';
import { rejectNulCharacters } from './http/reject-nul';
import { strictRoutes } from './http/strict-routes';
import { requestLog } from './http/request-log';
import type { HandlerMap } from './http/operations';
import { bundlePath, contractView, docsPath } from './http/spec';
import { contractDocumentRoute } from './http/contract-document';
import { docsRoute } from './http/docs-page';
import { credentialSchemes, errorRefiners, moduleHandlers } from './modules/registry';
import type { Services } from './services';
import { devOutboxRouter } from './notify/dev-outbox';
import { scimErrorHandler } from './modules/scim';
import { confirmationRouter } from './modules/external-communication';

export interface AppOptions {
  /** Replaces the handler map built from the modules (tests wrap or swap a handler). */
  handlers?: (modules: HandlerMap) => HandlerMap;
}

export function createApp(services: Services, options: AppOptions = {}): Express {
  const { config, logger } = services;
  const contract = contractView();
  const app = express();
  app.disable('x-powered-by');
  // API answers are no-store: an ETag (a SHA-1 of every body) would only cost time.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Strict, case-sensitive routing: `/core/v1/sessions/` and `/CORE/V1/SESSIONS` name no operation (strict-routes.ts).
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  app.use(requestLog(logger, config.instanceId));
  app.use(requestMetrics());
  app.use(helmet());
  // Operational, like /readyz: not in the /core/v1 contract; bearer token in production.
  app.get('/metrics', metricsRoute(config));

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res: Response) => {
    if (isDraining()) {
      res.status(503).json(new ApiError('SERVICE_UNAVAILABLE', { message: 'This instance is shutting down' }).toBody());
      return;
    }
    try {
      await withTimeout(services.database.ping(), 2_000);
      res.json({ status: 'ok', region: config.region });
    } catch {
      res.status(503).json(new ApiError('SERVICE_UNAVAILABLE', { message: 'The database is not reachable' }).toBody());
    }
  });
  app.get('/docs', docsRoute(docsPath));
  // The bundled contract, to generate clients from; outside the contract's operations, like /docs.
  app.get('/core/v1/openapi.json', contractDocumentRoute(bundlePath));
  // Default avatars for users without a picture (User.imageUrls is never null).
  app.use(
    '/assets',
    express.static(join(__dirname, '..', 'assets'), { immutable: true, maxAge: '7d', fallthrough: true, index: false }),
  );
  if (config.mode !== 'production' && config.notify.transport === 'outbox')
    app.use('/dev/outbox', devOutboxRouter(services));
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
      // accept-language is CORS-safelisted only for plain values; allowing it keeps any value working.
      allowedHeaders: [
        'authorization',
        'content-type',
        'cosafe-core-api-version',
        'cosafe-tenant-id',
        'cosafe-password-token',
        'cosafe-grant-type',
        'x-request-id',
        'accept-language',
      ],
      exposedHeaders: ['retry-after', 'x-request-id', 'date'],
      maxAge: 600,
    }),
  );
  app.use('/core', strictRoutes);
  app.use('/core', rejectOversizedBodies(parseByteLimit(config.bodyLimit)));
  // A streamed body (no Content-Length) is refused as soon as it passes the limit, not once it has ended.
  app.use(
    '/core',
    limitStreamedBody(
      express.json({ limit: config.bodyLimit, type: ['application/json', 'application/scim+json'] }),
      parseByteLimit(config.bodyLimit),
    ),
    limitStreamedBody(express.urlencoded({ extended: false, limit: '1mb' }), parseByteLimit('1mb')),
  );
  app.use('/core', rejectNulCharacters);
  app.use('/core', literalBracketParams(contract.documents[0].document));
  const pathIntegers = canonicalPathIntegers(contract.documents[0].document);
  for (const { document } of contract.documents) {
    // Bodies are validated as written (coerceTypes false); the validator always coerces query, path and headers,
    // which arrive as text. Its middlewares are [path params, metadata, ...]: the check of path id spellings goes
    // after the operation is matched and before the values are coerced.
    const validator = OpenApiValidator.middleware({
      apiSpec: document as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateFormats: true,
      ignoreUndocumented: false,
      fileUploader: false,
    }) as unknown as RequestHandler[];
    app.use(...validator.slice(0, 2), pathIntegers, ...validator.slice(2));
  }
  // The handler map and the credential schemes are built once per app: each module gets its own ports.
  const handlers = moduleHandlers(services);
  const schemes = credentialSchemes(services);
  app.use(dispatch(options.handlers?.(handlers) ?? handlers, contract.operations, services, schemes));
  app.use('/core/v1/scim', notFound, scimErrorHandler(logger));
  app.use(notFound);
  app.use(errorHandler(logger, errorRefiners));
  return app;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);
}

export type { Request };
