// Tracing's settings and redaction, and that without an OTLP endpoint nothing of OpenTelemetry is loaded: every
// @opentelemetry package is replaced by a stand-in that records being loaded, the telemetry module is loaded
// afresh and started with and without the variable. tracing-region.test.ts runs a region with tracing on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { redacted, scrubbed, tracedPath, tracedQuery, tracingSettings } from '../../src/telemetry';

const serverPackage = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const openTelemetryPackages = Object.keys(serverPackage.dependencies).filter((name) =>
  name.startsWith('@opentelemetry/'),
);

describe('tracing is off unless configured', () => {
  /** Loads a fresh telemetry module with every @opentelemetry package replaced; answers what got loaded. */
  async function start(env: Record<string, string>): Promise<{ loaded: string[]; result: unknown }> {
    const loaded: string[] = [];
    let result: unknown;
    await jest.isolateModulesAsync(async () => {
      for (const name of openTelemetryPackages)
        jest.doMock(name, () => {
          loaded.push(name);
          throw new Error(`${name} was loaded`);
        });
      const telemetry = jest.requireActual<typeof import('../../src/telemetry')>('../../src/telemetry');
      result = await telemetry.startTelemetry(env).catch((error: Error) => error);
    });
    for (const name of openTelemetryPackages) jest.dontMock(name);
    return { loaded, result };
  }

  test('the server depends on the OpenTelemetry packages the test replaces', () => {
    expect(openTelemetryPackages).toEqual(
      expect.arrayContaining([
        '@opentelemetry/api',
        '@opentelemetry/sdk-trace',
        '@opentelemetry/instrumentation-http',
        '@opentelemetry/instrumentation-pg',
      ]),
    );
  });

  test('without an endpoint, starting returns null and loads no @opentelemetry module', async () => {
    expect(await start({})).toEqual({ loaded: [], result: null });
    expect(await start({ OTEL_SERVICE_NAME: 'core-api', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toEqual({
      loaded: [],
      result: null,
    });
    // Configured but switched off.
    expect(await start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toEqual({
      loaded: [],
      result: null,
    });
  });

  test('with an endpoint, the same start loads them (the stand-ins see it)', async () => {
    const { loaded, result } = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(loaded.length).toBeGreaterThan(0);
    expect(String(result)).toMatch(/@opentelemetry\/.* was loaded/);
  });
});

describe('tracing settings', () => {
  test('the traces endpoint: as given, or the general one with /v1/traces', () => {
    expect(tracingSettings({})).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      sampler: { name: 'parentbased_traceidratio', ratio: 0.05 },
    });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.test/custom',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }),
    ).toEqual({
      url: 'https://traces.example.test/custom',
      protocol: 'http/json',
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
    });
  });

  test('the sampler: 5 % of the requests without a sampled caller by default, another ratio or sampler when set', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingSettings(endpoint)?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.05 });
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_SAMPLER_ARG: '0.2' })?.sampler).toEqual({
      name: 'parentbased_traceidratio',
      ratio: 0.2,
    });
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio' })?.sampler).toEqual({
      name: 'traceidratio',
      ratio: 0.05,
    });
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on' })?.sampler.name).toBe(
      'parentbased_always_on',
    );
  });

  test('a setting it cannot honour stops the start with its name', () => {
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    );
    expect(() =>
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/);
    expect(() =>
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'jaeger_remote' }),
    ).toThrow(/OTEL_TRACES_SAMPLER must be one of/);
    expect(() =>
      tracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a ratio/);
  });
});

describe('what spans may say', () => {
  test('paths keep their shape; push tokens, confirmation-link tokens and identity hashes are redacted', () => {
    expect(tracedPath('/core/v1/users/12/password-reset')).toBe('/core/v1/users/12/password-reset');
    expect(tracedPath('/core/v1/push-tokens/fcm-secret-token')).toBe(`/core/v1/push-tokens/${redacted}`);
    expect(tracedPath('/c/confirm-secret')).toBe(`/c/${redacted}`);
    expect(tracedPath(`/core/v1/probes/hash/${'ab'.repeat(32)}`)).toBe(`/core/v1/probes/hash/${redacted}`);
    expect(tracedPath('/core/v1/probes/idpDomain/example.com')).toBe('/core/v1/probes/idpDomain/example.com');
  });

  test('query strings keep their parameter names, never a value', () => {
    expect(tracedQuery('token=Xq7vR2mN9kLp4sT8wY1zB6cD3fG5hJ0a')).toBe(`token=${redacted}`);
    expect(tracedQuery('filter=userName%20eq%20%22anna%40demo.test%22&count=5')).toBe(
      `filter=${redacted}&count=${redacted}`,
    );
    expect(tracedQuery('name%5Bmatch%5D=crisis')).toBe(`name%5Bmatch%5D=${redacted}`);
  });

  test('exceptions keep their type and frames, error statuses their code; the messages (which may quote a body) go', () => {
    const password = 'Demo-Password-1!';
    const error = new SyntaxError(`Unexpected token 'D', "${password}" is not valid JSON`);
    const span = {
      name: 'middleware - jsonParser',
      attributes: { 'express.type': 'middleware' },
      status: { code: 2, message: error.message },
      events: [
        { name: 'note', attributes: { kept: 'yes' }, time: [0, 0] },
        {
          name: 'exception',
          attributes: {
            'exception.type': 'SyntaxError',
            'exception.message': error.message,
            'exception.stacktrace': error.stack,
          },
          time: [0, 0],
        },
      ],
      spanContext: () => ({ traceId: 't', spanId: 's', traceFlags: 1 }),
    } as unknown as ReadableSpan;
    const out = scrubbed(span);
    expect(JSON.stringify({ status: out.status, events: out.events })).not.toContain(password);
    expect(out.status).toEqual({ code: 2 });
    expect(out.events[0]).toBe(span.events[0]);
    expect(out.events[1].attributes?.['exception.type']).toBe('SyntaxError');
    expect(out.events[1].attributes?.['exception.stacktrace']).toMatch(/^SyntaxError\n\s+at /);
    // Everything else is the span's own.
    expect(out.name).toBe(span.name);
    expect(out.attributes).toBe(span.attributes);
    expect(out.spanContext().spanId).toBe('s');
    // A span with nothing to scrub is handed on as it is.
    const clean = { ...span, status: { code: 0 }, events: [] } as unknown as ReadableSpan;
    expect(scrubbed(clean)).toBe(clean);
  });
});
