// Workarounds of a library's internals stay only until upstream fixes what they work around: each test here
// checks that the library still behaves as the workaround assumes, and fails on the day it no longer does, so
// the workaround gets removed (docs/decisions.md, Performance notes).
import pathToRegexpModule = require('path-to-regexp');
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';

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
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { 200: { description: 'ok' } },
        },
      },
    ]),
  ),
};

test('express-openapi-validator still compiles its route matchers on every request (cdimascio/express-openapi-validator#1217); when this fails, remove http/route-matcher-cache.ts', async () => {
  const module = pathToRegexpModule as { pathToRegexp: typeof pathToRegexpModule.pathToRegexp };
  const original = module.pathToRegexp;
  let compiled = 0;
  module.pathToRegexp = ((...args: Parameters<typeof original>) => {
    compiled++;
    return original(...args);
  }) as typeof original;
  try {
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: spec as never, validateRequests: true, validateResponses: false }));
    app.get('/v1/things/:id', (_req, res) => void res.json({}));
    expect((await request(app).get('/v1/things/1')).status).toBe(200); // the first request loads the spec
    compiled = 0;
    expect((await request(app).get('/v1/things/2')).status).toBe(200);
    expect(compiled).toBeGreaterThan(0);
  } finally {
    module.pathToRegexp = original;
  }
});
