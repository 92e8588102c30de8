// A region started as a real process (`node --import tsx server/src/main.ts`, development mode with its demo data)
// with OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP receiver in this test (OTLP JSON) and the default sampler
// (5 %, parent-based). The test's requests carry a sampled W3C traceparent, as a traced caller's do, so each is
// traced; 40 more without one are mostly not, and one with an unsampled traceparent is not. After a SIGTERM well
// within the batch delay, the receiver holds for a request an HTTP server span with the contract's route, one
// handler span under it and, on PostgreSQL (TEST_DATABASE_URL), a span per statement under that: no span per
// Express middleware. Nothing it received holds the bearer token, the refresh token, the password, a password
// link's token, a push token or an identity hash.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresUrl } from '../support/database';
import { freePort, startProcess, stopProcess, waitForHttp, type Spawned } from '../../../test-support/processes';
import { scratchDatabase, type ScratchDatabase } from './scratch-database';

jest.setTimeout(180_000);

const root = join(__dirname, '..', '..', '..');
const v1 = { 'cosafe-core-api-version': '1' };
const email = 'anna@demo.test';
const password = 'Demo-Password-1!';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}
interface Span {
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const SERVER = 2;
/** A W3C traceparent from a caller: its trace id, its span as the parent, sampled (01) or not (00). */
const traceparent = (sampled: boolean) =>
  `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${sampled ? '01' : '00'}`;

describe('a region with tracing on', () => {
  let work: string;
  let receiver: Server;
  const received: { path: string; contentType: string; body: string }[] = [];
  let database: ScratchDatabase | null = null;
  let region: Spawned;
  let baseUrl = '';
  let spans: Span[] = [];
  let resource: Record<string, unknown> = {};
  const secrets: Record<string, string> = { password };
  let exitCode: number | string | null = null;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'core-tracing-'));
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const receiverPort = typeof address === 'object' && address ? address.port : 0;

    if (postgresUrl) database = await scratchDatabase(work);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    region = startProcess(process.execPath, ['--import', 'tsx', join('server', 'src', 'main.ts')], {
      cwd: root,
      logFile: join(work, 'region.log'),
      env: {
        ...env,
        NODE_ENV: 'development',
        REGION: 'eu-north-1',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: baseUrl,
        DATA_DIR: join(work, 'data'),
        LOG_LEVEL: 'warn',
        ...(database ? { DATABASE_URL: database.url } : {}),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
    });
    await waitForHttp(`${baseUrl}/readyz`, region, 120_000);

    const call = async (
      method: string,
      path: string,
      init: { token?: string; body?: string; sampled?: boolean | null } = {},
    ) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...v1,
          ...(init.sampled !== null ? { traceparent: traceparent(init.sampled ?? true) } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body,
        signal: AbortSignal.timeout(15_000),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    };

    const session = await call('POST', '/core/v1/sessions', {
      body: JSON.stringify({ grantType: 'password', email, password }),
    });
    expect(session.status).toBe(201);
    secrets.accessToken = String(session.body?.accessToken);
    secrets.refreshToken = String(session.body?.refreshToken);
    expect((await call('GET', '/core/v1/tenants', { token: secrets.accessToken })).status).toBe(200);
    // Secrets in the path and the query string.
    secrets.pushToken = `push${randomBytes(16).toString('hex')}`;
    const push = await call('PUT', `/core/v1/push-tokens/${secrets.pushToken}`, {
      token: secrets.accessToken,
      body: JSON.stringify({ type: 'android', appVersion: '4.12.0' }),
    });
    expect(push.status).toBe(200);
    secrets.identityHash = createHash('sha256').update(email).digest('hex');
    const probe = await call('POST', `/core/v1/probes/hash/${secrets.identityHash}`, {
      body: JSON.stringify({ password }),
    });
    expect(probe.status).toBe(200);
    secrets.resetToken = randomBytes(24).toString('base64url');
    expect((await call('GET', `/core/v1/users/1/password-reset?token=${secrets.resetToken}`)).status).toBeLessThan(500);
    // A body that is not JSON: the parser's error message quotes it (a short one whole).
    expect((await call('POST', '/core/v1/sessions', { body: `[${password}]` })).status).toBe(400);
    // Without a caller's decision the default sampler traces about one request in twenty; a caller's "not
    // sampled" is followed.
    for (let i = 0; i < 40; i++)
      expect(
        (await call('GET', '/core/v1/tenants?limit=7', { token: secrets.accessToken, sampled: null })).status,
      ).toBe(200);
    expect((await call('GET', '/core/v1/tenants?limit=9', { token: secrets.accessToken, sampled: false })).status).toBe(
      200,
    );

    // Stopped at once, well within the batch processor's 5 s: what arrives now was flushed by the shutdown.
    await stopProcess(region, 30_000);
    exitCode = await region.exited;
    for (const { body } of received) {
      const batch = JSON.parse(body) as OtlpExport;
      for (const { resource: r, scopeSpans } of batch.resourceSpans) {
        resource = Object.fromEntries(r.attributes.map((a) => [a.key, valueOf(a.value)]));
        for (const { scope, spans: list } of scopeSpans)
          for (const s of list)
            spans.push({
              scope: scope.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: Object.fromEntries(s.attributes.map((a) => [a.key, valueOf(a.value)])),
            });
      }
    }
  });

  afterAll(async () => {
    if (region) await stopProcess(region);
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  /** The server span of a request this test made (main.ts's own warm-up request answers 401). */
  const serverSpan = (name: string, status?: number) =>
    spans.find(
      (s) => s.kind === SERVER && s.name === name && (!status || s.attributes['http.response.status_code'] === status),
    );

  test('the region shut down cleanly and its spans arrived as OTLP JSON at /v1/traces', () => {
    expect(exitCode).toBe(0);
    expect(received.length).toBeGreaterThan(0);
    for (const r of received) {
      expect(r.path).toBe('/v1/traces');
      expect(r.contentType).toMatch(/^application\/json/);
    }
    expect(resource).toMatchObject({ 'service.name': 'core-api', 'cloud.region': 'eu-north-1' });
  });

  test('an HTTP server span per request, named by the contract route, with one handler span under it', () => {
    // The test's own request: the region's warm-up request (no query either) answers 401, and is traced when the
    // default sampler picks it (about one start in twenty).
    const tenants = spans.find(
      (s) =>
        s.kind === SERVER &&
        s.name === 'GET /core/v1/tenants' &&
        s.attributes['url.query'] === undefined &&
        s.attributes['http.response.status_code'] === 200,
    );
    expect(tenants?.scope).toBe('@opentelemetry/instrumentation-http');
    expect(tenants?.attributes).toMatchObject({
      'http.route': '/core/v1/tenants',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'url.path': '/core/v1/tenants',
    });
    const trace = spans.filter((s) => s.traceId === tenants?.traceId);
    const handler = trace.filter((s) => s.parentSpanId === tenants?.spanId);
    expect(handler.map((s) => s.name)).toEqual(['handler listTenants']);
    // The HTTP span, the handler span and the statements: nothing else (27 spans per GET with a span per middleware).
    expect(trace.filter((s) => !s.scope.endsWith('instrumentation-pg')).length).toBe(2);
    expect(spans.filter((s) => s.scope.endsWith('instrumentation-express'))).toEqual([]);
    // Health checks are not traced.
    expect(spans.filter((s) => String(s.attributes['url.path']).endsWith('z'))).toEqual([]);
  });

  test('the default sampler: a twentieth of the requests without a caller, none whose caller did not sample', () => {
    const sampled = spans.filter((s) => s.kind === SERVER && s.attributes['url.query'] === 'limit=REDACTED');
    // 40 requests at 5 %: 2 expected; more than 15 has a probability below 1e-10. The limit=9 one is unsampled.
    expect(sampled.length).toBeLessThanOrEqual(15);
    expect(sampled.every((s) => s.name === 'GET /core/v1/tenants')).toBe(true);
  });

  (postgresUrl ? test : test.skip)(
    'on PostgreSQL, the statements of a request as pg spans under its handler span, without their values',
    () => {
      const tenants = serverSpan('GET /core/v1/tenants', 200);
      const handler = spans.find((s) => s.traceId === tenants?.traceId && s.name === 'handler listTenants');
      const pg = spans.filter((s) => s.traceId === tenants?.traceId && s.scope.endsWith('instrumentation-pg'));
      const queries = pg.filter((s) => typeof s.attributes['db.query.text'] === 'string');
      expect(queries.length).toBeGreaterThan(0);
      expect(pg.every((s) => s.parentSpanId === handler?.spanId)).toBe(true);
      expect(queries[0].attributes).toMatchObject({ 'db.system.name': 'postgresql' });
      expect(spans.some((s) => 'db.postgresql.values' in s.attributes)).toBe(false);
      // Only statements inside a traced request: the job scheduler's polling makes no root spans.
      expect(spans.filter((s) => s.scope.endsWith('instrumentation-pg') && !s.parentSpanId)).toEqual([]);
    },
  );

  test('secrets in paths and query strings are redacted', () => {
    expect(serverSpan('PUT /core/v1/push-tokens/{id}')?.attributes['url.path']).toBe('/core/v1/push-tokens/REDACTED');
    expect(serverSpan('POST /core/v1/probes/hash/{hash}')?.attributes['url.path']).toBe(
      '/core/v1/probes/hash/REDACTED',
    );
    expect(serverSpan('GET /core/v1/users/{userId}/password-reset')?.attributes['url.query']).toBe('token=REDACTED');
  });

  test('nothing sent to the collector holds a token, the password, a push token or the identity hash', () => {
    // The unparsable body's request was traced (its 400), and its error message with the body is nowhere.
    expect(
      spans.some(
        (s) =>
          s.kind === SERVER &&
          s.attributes['url.path'] === '/core/v1/sessions' &&
          s.attributes['http.response.status_code'] === 400,
      ),
    ).toBe(true);
    const everything = received.map((r) => r.body).join('\n');
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret.length).toBeGreaterThan(8);
      if (everything.includes(secret)) throw new Error(`the spans hold the ${what}`);
    }
    expect(everything).not.toMatch(/bearer /i);
  });
});
