import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { servePage } from '../../src/http/docs-page';
import { docsPath } from '../../src/http/spec';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('health', () => {
  test('GET /healthz answers ok', async () => {
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
  });

  test('GET /readyz answers ok while the database answers', async () => {
    const res = await request(ctx.app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', region: 'eu-north-1' });
  });

  test('GET /readyz answers 503 SERVICE_UNAVAILABLE when the database does not', async () => {
    const other = await createTestContext();
    await other.database.close();
    const res = await request(other.app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('docs and headers', () => {
  test('GET /docs serves the self-contained Redoc page with every operation', async () => {
    const res = await request(ctx.app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).not.toMatch(/<script[^>]+src="https?:/);
    for (const operationId of ['createSession', 'refreshSession', 'sendCecMessage', 'consumeSamlAssertion'])
      expect(res.text).toContain(operationId);
  });

  test('GET /docs is sent compressed, Brotli or gzip as the browser takes it, and whole otherwise', async () => {
    // The page as served: Redoc's, with its own logo, favicon and fixes (docs-page.ts).
    const file = Buffer.from(servePage(readFileSync(docsPath, 'utf8')));
    // Plain Node HTTP: what crosses the wire, undecoded (supertest decodes what it receives).
    const server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const raw = (encoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/docs', headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const br = await raw('gzip, deflate, br');
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'Accept-Encoding']);
    expect(brotliDecompressSync(br.body as Buffer).equals(file)).toBe(true);
    // The page is some 2.8 MB; what crosses the wire is a small part of it.
    expect((br.body as Buffer).length).toBeLessThan(file.length / 4);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body as Buffer).equals(file)).toBe(true);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((plain.body as Buffer).equals(file)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
  });

  test('helmet headers are set and the framework is not advertised', async () => {
    const res = await request(ctx.app).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  test('CORS allows the sign-in app and nobody else', async () => {
    const allowed = await request(ctx.app)
      .options('/core/v1/sessions')
      .set('origin', 'http://localhost:5173')
      .set('access-control-request-method', 'POST');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const denied = await request(ctx.app)
      .options('/core/v1/sessions')
      .set('origin', 'https://evil.test')
      .set('access-control-request-method', 'POST');
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('every answer carries a request id', async () => {
    const res = await request(ctx.app).get('/core/v1/tenants').set(v1);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('logs', () => {
  test('never contain passwords, tokens, codes or keys', async () => {
    const tenant = await insertTenant(ctx.services);
    const user = await insertUser(ctx.services, { tenants: [tenant] });
    const { accessToken } = await signIn(ctx.services, user.id);
    const secrets = ['Sup3r-Secret-Pa55!', 'reset-token-abcdefghijklmnop', accessToken, '918273'];
    await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: 'x@y.test', password: secrets[0] });
    await request(ctx.app)
      .get(`/core/v1/users/${user.id}/password-set`)
      .set('cosafe-password-token', secrets[1])
      .set(v1);
    // A token put in the query string is refused, and not logged either.
    await request(ctx.app).get(`/core/v1/users/${user.id}/password-set`).query({ token: secrets[1] }).set(v1);
    await request(ctx.app).get('/core/v1/tenants').set(v1).set('authorization', `Bearer ${accessToken}`);
    await request(ctx.app)
      .patch('/core/v1/sessions/0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11')
      .set(v1)
      .set('authorization', `Bearer ${accessToken}`)
      .send({ otpEmail: { code: secrets[3] } });
    await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .set('content-type', 'application/json')
      .send(`{"password":"${secrets[0]}"`);
    const log = ctx.logs.join('\n');
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('request completed');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

describe('default avatars', () => {
  test.each(['small', 'medium', 'large'])('GET /assets/avatars/default-%s.png serves a PNG', async (size) => {
    const res = await request(ctx.app).get(`/assets/avatars/default-${size}.png`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('caching and log hygiene', () => {
  test('API answers are never cached', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'password', email: 'nobody@example.test', password: 'x' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('a device push token in the path is not logged', async () => {
    const user = await insertUser(ctx.services);
    const { accessToken } = await signIn(ctx.services, user.id);
    await request(ctx.app)
      .put('/core/v1/push-tokens/device-secret-token-123')
      .set(v1)
      .set('authorization', `Bearer ${accessToken}`)
      .send({ type: 'ios', appVersion: '1.0' });
    const log = ctx.logs.join('\n');
    expect(log).toContain('/core/v1/push-tokens/[redacted]');
    expect(log).not.toContain('device-secret-token-123');
  });
});
