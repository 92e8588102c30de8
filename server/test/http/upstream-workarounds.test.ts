// Changes to a library's internals stay only until upstream makes them needless: each test here checks that the
// installed library is the one the change was made for and still behaves as the change assumes, and fails on the
// day it no longer does (docs/decisions.md, Performance notes).
//
// express-openapi-validator is patched (patches/, applied by patch-package on install): it finds a request's
// operation in route matchers compiled once per route, not by compiling and trying every route on every request,
// and reads the raw query without the deprecated url.parse. The lookup must answer exactly as upstream's does.
// It also starts faster, which every region start and every test file's app pays: the contract is prepared without
// compiling each schema it references (the preprocessor only reads them back), a route's response validators are
// compiled when a response of their status first comes rather than all of them at the route's first response, the
// OpenAPI meta-schema is compiled only when the document is to be checked against it, and the document is cleaned of
// `x-stoplight` once rather than by each of its Ajv instances.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import url from 'node:url';
import pathToRegexpModule = require('path-to-regexp');
import express, { type NextFunction, type Request, type Response } from 'express';
import fc from 'fast-check';
import * as OpenApiValidator from 'express-openapi-validator';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader';
import { OpenApiContext } from 'express-openapi-validator/dist/framework/openapi.context';
import * as factorySchema from 'express-openapi-validator/dist/framework/openapi/factory.schema';
import { applyOpenApiMetadata } from 'express-openapi-validator/dist/middlewares/openapi.metadata';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor';
import * as validatorUtil from 'express-openapi-validator/dist/middlewares/util';
import { OpenApiValidator as ValidatorOptions } from 'express-openapi-validator/dist/openapi.validator';
import { isDeepStrictEqual } from 'node:util';
import request from 'supertest';
import { contractView } from '../../src/http/spec';

const root = join(__dirname, '..', '..', '..');

const spec = {
  openapi: '3.1.0',
  info: { title: 'upstream check', version: '1' },
  servers: [{ url: '/v1' }],
  paths: Object.fromEntries(
    ['things', 'others', 'more'].map((name) => [
      `/${name}/{id}`,
      {
        get: {
          operationId: `get-${name}`,
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
    ]),
  ),
};

function validatedApp() {
  const app = express();
  app.use(OpenApiValidator.middleware({ apiSpec: spec as never, validateRequests: true, validateResponses: false }));
  app.get('/v1/:name/:id', (req, res) => void res.json({ query: req.query }));
  app.use((error: { status: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status).json({ message: error.message });
  });
  return app;
}

test('the patch is for the installed express-openapi-validator: on an upgrade, redo it or drop it if upstream caches its route matchers (cdimascio/express-openapi-validator#1217)', () => {
  const patches = readdirSync(join(root, 'patches')).filter((f) => f.startsWith('express-openapi-validator+'));
  const { version } = require('express-openapi-validator/package.json') as { version: string };
  expect(patches).toEqual([`express-openapi-validator+${version}.patch`]);
});

test('no route matcher is compiled per request once the routes are loaded (the patch is applied)', async () => {
  const module = pathToRegexpModule as { pathToRegexp: typeof pathToRegexpModule.pathToRegexp };
  const original = module.pathToRegexp;
  let compiled = 0;
  module.pathToRegexp = ((...args: Parameters<typeof original>) => {
    compiled++;
    return original(...args);
  }) as typeof original;
  try {
    const app = validatedApp();
    expect((await request(app).get('/v1/things/1')).status).toBe(200); // the first request loads the spec
    compiled = 0;
    expect((await request(app).get('/v1/things/2')).status).toBe(200);
    expect((await request(app).get('/v1/more/3')).status).toBe(200);
    expect(compiled).toBe(0);
  } finally {
    module.pathToRegexp = original;
  }
});

test('the query is read without url.parse, with the same answers (the patch is applied)', async () => {
  const parse = jest.spyOn(url, 'parse');
  try {
    const app = validatedApp();
    const plain = await request(app).get('/v1/things/1?q=a%2Cb');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ query: { q: 'a,b' } });
    // Reserved characters in a query value are refused, as upstream refuses them.
    const reserved = await request(app).get('/v1/things/1?q=a[b]');
    expect(reserved.status).toBe(400);
    expect(reserved.body.message).toMatch(/must be url encoded/);
    expect(parse).not.toHaveBeenCalled();
  } finally {
    parse.mockRestore();
  }
});

test('the contract is prepared as upstream prepares it, without compiling the schemas it references (the patch is applied)', () => {
  for (const { document } of contractView().documents) {
    const options = {
      apiSpec: document,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: { removeAdditional: false },
      validateSecurity: false,
      fileUploader: false,
    };
    const ajvOptions = (new ValidatorOptions(options as never) as unknown as { ajvOpts: { preprocessor: object } })
      .ajvOpts.preprocessor;
    const prepare = (upstream: boolean) => {
      const preprocessor = new SchemaPreprocessor(structuredClone(document) as never, ajvOptions as never, {
        removeAdditional: false,
      });
      const internals = preprocessor as unknown as {
        ajv: { getSchema(ref: string): unknown };
        registeredSchemas: Map<string, unknown>;
      };
      // Upstream asks the preprocessor's Ajv for every component schema, which compiles it: with the patch's map of
      // registered schemas empty, the patched preprocessor does the same.
      if (upstream) internals.registeredSchemas.clear();
      const getSchema = jest.spyOn(internals.ajv, 'getSchema');
      const prepared = preprocessor.preProcess();
      const compiled = getSchema.mock.calls.filter(([ref]) => ref.startsWith('#/components/schemas/')).length;
      return { prepared, compiled };
    };
    const patched = prepare(false);
    const upstream = prepare(true);
    expect(upstream.compiled).toBeGreaterThan(50);
    expect(patched.compiled).toBe(0);
    expect(isDeepStrictEqual(patched.prepared.apiDoc, upstream.prepared.apiDoc)).toBe(true);
    expect(isDeepStrictEqual(patched.prepared.apiDocRes, upstream.prepared.apiDocRes)).toBe(true);
  }
});

test('a response validator is compiled when its status first comes, and refuses a response that breaks the contract (the patch is applied)', async () => {
  const body = (property: string) => ({
    content: {
      'application/json': {
        schema: { type: 'object', required: [property], properties: { [property]: { type: 'string' } } },
      },
    },
  });
  const responses = { 200: { description: 'ok', ...body('name') }, 400: { description: 'refused', ...body('code') } };
  const app = express();
  app.use(
    OpenApiValidator.middleware({
      apiSpec: {
        openapi: '3.1.0',
        info: { title: 'responses', version: '1' },
        paths: { '/things/{id}': { get: { parameters: [spec.paths['/things/{id}'].get.parameters[0]], responses } } },
      } as never,
      validateApiSpec: false,
      validateResponses: true,
    }),
  );
  app.get('/things/:id', (req, res) => {
    // The validator has made the path's id a number.
    const id = Number(req.params.id);
    if (id === 1) res.json({ name: 'one' });
    else if (id === 2) res.status(400).json({ code: 'refused' });
    else res.status(400).json({ name: 'not a refusal' });
  });
  app.use((error: { status: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status).json({ message: error.message });
  });
  const compile = jest.spyOn(validatorUtil, 'useAjvCache');
  // The request's validators go through the same cache, under keys without a status.
  const responseValidators = () =>
    compile.mock.calls.map(([, , key]) => /-(\d{3})-application\/json$/.exec(key)?.[1]).filter(Boolean);
  try {
    expect((await request(app).get('/things/1')).status).toBe(200);
    // Upstream compiles the route's 200 and 400 validators here.
    expect(responseValidators()).toEqual(['200']);
    expect((await request(app).get('/things/2')).status).toBe(400);
    expect(responseValidators()).toEqual(['200', '400']);
    const broken = await request(app).get('/things/3');
    expect(broken.status).toBe(500);
    expect(broken.body.message).toMatch(/must have required property 'code'/);
    expect(responseValidators()).toEqual(['200', '400']);
  } finally {
    compile.mockRestore();
  }
});

test('the OpenAPI meta-schema is compiled only when the document is to be checked against it (the patch is applied)', async () => {
  const metaSchema = jest.spyOn(factorySchema, 'factorySchema');
  const invalid = { ...spec, paths: { '/things': { get: { responses: 'not responses' } } } };
  const answer = async (validateApiSpec: boolean) => {
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(invalid) as never, validateApiSpec }));
    app.use((error: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
      res.status(error.status ?? 500).json({ message: error.message });
    });
    return request(app).get('/v1/things');
  };
  try {
    await answer(false);
    expect(metaSchema).not.toHaveBeenCalled();
    const checked = await answer(true);
    expect(metaSchema).toHaveBeenCalledTimes(1);
    expect(checked.status).toBe(500);
    expect(checked.body.message).toMatch(/args.apiDoc was invalid/);
  } finally {
    metaSchema.mockRestore();
  }
});

// Upstream's lookup (express-openapi-validator 5.6.2, middlewares/openapi.metadata.js), kept as the reference:
// every route in order, compiled on the spot, the first that matches wins.
function upstreamLookup(context: OpenApiContext, path: string, method: string, sensitive: boolean) {
  for (const [expressRoute, methods] of Object.entries(context.expressRouteMap)) {
    const openApiRoute = context.routePair(expressRoute)!.openApiRoute;
    const pathKey = openApiRoute.substring((methods as { basePath: string }).basePath.length);
    const schema = (context.apiDoc.paths as Record<string, any>)[pathKey][method.toLowerCase()];
    const regexpObj = pathToRegexpModule.pathToRegexp(expressRoute, { sensitive, strict: false } as never);
    const matched = regexpObj.regexp.exec(path);
    if (matched) {
      try {
        const values = matched.slice(1).map(decodeURIComponent);
        return {
          schema,
          openApiRoute,
          pathParams: Object.fromEntries(regexpObj.keys.map((k, i) => [k.name, values[i]])),
        };
      } catch {
        return 'BadRequest';
      }
    }
  }
  return null;
}

const outcome = (error: unknown) => (error as { constructor: { name: string } }).constructor.name;

describe('the patched lookup answers as upstream for every path', () => {
  const documents = contractView().documents;
  let contexts: OpenApiContext[];

  beforeAll(async () => {
    contexts = await Promise.all(
      documents.map(async ({ document }) => {
        const loaded = await new OpenApiSpecLoader({
          apiDoc: structuredClone(document) as never,
          validateApiSpec: false,
        } as never).load();
        return new OpenApiContext(loaded as never, undefined as never, false, false);
      }),
    );
  });

  const segment = fc.stringMatching(/^[a-zA-Z0-9%._~:@-]{0,6}$/);
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

  /** A route of the contract with its parameters filled in, letters' case flipped, slashes added or taken away. */
  const pathArbitrary = (context: OpenApiContext) =>
    fc
      .record({
        route: fc.constantFrom(...context.routes.map((r) => r.openApiRoute)),
        values: fc.array(segment, { minLength: 4, maxLength: 4 }),
        flips: fc.array(fc.nat(80), { maxLength: 3 }),
        tail: fc.constantFrom('', '', '/', '//', '/x', '%', '%E0%A4%A'),
        cut: fc.nat(100),
        cutIt: fc.boolean(),
      })
      .map(({ route, values, flips, tail, cut, cutIt }) => {
        let n = 0;
        let path = route.replace(/\{[^}]+\}/g, () => values[n++ % values.length]) + tail;
        if (cutIt) path = path.slice(0, cut % (path.length + 1));
        for (const at of flips) {
          const i = at % Math.max(1, path.length);
          const c = path.charAt(i);
          path = path.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + path.slice(i + 1);
        }
        return path;
      });

  test.each([false, true])('case sensitive routing %s', (sensitive) => {
    for (const context of contexts) {
      const middleware = applyOpenApiMetadata(context, undefined as never);
      fc.assert(
        fc.property(pathArbitrary(context), fc.constantFrom(...methods), (path, method) => {
          const req = {
            path,
            baseUrl: '',
            url: path,
            originalUrl: path,
            method,
            params: {},
            app: { enabled: (setting: string) => setting === 'case sensitive routing' && sensitive },
          } as any;
          let actual: unknown = 'none';
          try {
            middleware(req, {} as never, () => {
              if (req.openapi)
                actual = {
                  schema: req.openapi.schema,
                  openApiRoute: req.openapi.openApiRoute,
                  pathParams: req.openapi.pathParams,
                };
            });
          } catch (error) {
            actual = outcome(error);
          }
          const reference = upstreamLookup(context, path, method, sensitive);
          let expected: unknown = reference;
          if (reference === null) expected = context.isManagedRoute(path) ? 'NotFound' : 'none';
          else if (reference !== 'BadRequest' && !reference.schema) expected = 'MethodNotAllowed';
          expect(actual).toEqual(expected);
        }),
        { numRuns: 1500 },
      );
    }
  });
});
