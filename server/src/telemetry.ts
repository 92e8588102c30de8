// Optional OpenTelemetry tracing: off unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), and then a sample of requests is traced (5 % by default, parent-based: a
// caller's sampled traceparent is followed) with three kinds of span: the HTTP server span, one handler span per API
// operation (http/handler-span.ts) and one span per PostgreSQL statement; no span per Express middleware. They go
// to that endpoint over OTLP/HTTP (protobuf, or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json). main.ts starts it
// before anything it instruments is loaded (the instrumentations patch http and pg as they are first required).
// Unconfigured, nothing of OpenTelemetry is loaded: every @opentelemetry package is imported dynamically, behind
// the check. The standard variables apply: OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS
// (and _TIMEOUT, _CERTIFICATE...), OTEL_TRACES_SAMPLER(_ARG), OTEL_LOG_LEVEL, OTEL_SDK_DISABLED.
//
// Spans carry no secrets: no headers (none are recorded), no bodies, every query-string value redacted (a password
// link's token, a search text), the path segments that are secrets or personal data redacted (push tokens,
// confirmation-link tokens, identity hashes), no SQL parameter values (only the statement text, whose values are
// all parameters), and no error messages (a JSON parse error quotes the body, a PostgreSQL error may quote a
// value): exceptions keep their type and stack frames, error statuses their code.
import type { IncomingMessage } from 'node:http';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { setHandlerTracer } from './http/handler-span';

export interface Telemetry {
  /** Ends the spans still buffered to the collector (bounded by `timeoutMs`); then tracing stops. */
  shutdown(timeoutMs?: number): Promise<void>;
}

type Env = Record<string, string | undefined>;

export const defaultServiceName = 'core-api';

/** Requests that are not traced: health and readiness checks, metric scrapes (a probe every few seconds). */
const untraced = new Set(['/healthz', '/readyz', '/metrics']);

/** Path segments that are secrets or personal data: the segment after each of these prefixes is redacted. */
const secretSegments = [/^(\/c\/)[^/]+/, /(\/push-tokens\/)[^/]+/, /(\/probes\/hash\/)[^/]+/];

export const redacted = 'REDACTED';

/** The sampler without OTEL_TRACES_SAMPLER: a twentieth of the requests that arrive without a sampled caller. */
export const defaultSampler = { name: 'parentbased_traceidratio', ratio: 0.05 } as const;

/** The request path as traced: the secret segments redacted. */
export function tracedPath(path: string): string {
  return secretSegments.reduce((p, pattern) => p.replace(pattern, `$1${redacted}`), path);
}

/** The query string as traced: the parameter names, every value redacted. */
export function tracedQuery(query: string): string {
  return [...new URLSearchParams(query).keys()].map((name) => `${encodeURIComponent(name)}=${redacted}`).join('&');
}

export interface TracingSettings {
  /** Where spans go: the traces endpoint as given, or the general OTLP endpoint with /v1/traces. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  sampler: { name: (typeof samplers)[number]; ratio: number };
}

const samplers = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

const lower = (value: string | undefined) => value?.trim().toLowerCase() || undefined;

/** Tracing's settings from the standard variables; null when no OTLP endpoint is set (tracing off). */
export function tracingSettings(env: Env): TracingSettings | null {
  if (lower(env.OTEL_SDK_DISABLED) === 'true') return null;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = traces || (general ? `${general.replace(/\/+$/, '')}/v1/traces` : null);
  if (!url) return null;
  const problem = (message: string) => new Error(`tracing: ${message}`);
  if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))
    throw problem(`OTEL_EXPORTER_OTLP${traces ? '_TRACES' : ''}_ENDPOINT must be an http(s) URL, not "${url}"`);
  const protocol =
    lower(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? lower(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw problem(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, not "${protocol}"`);
  const name = lower(env.OTEL_TRACES_SAMPLER) ?? defaultSampler.name;
  if (!(samplers as readonly string[]).includes(name))
    throw problem(`OTEL_TRACES_SAMPLER must be one of ${samplers.join(', ')}, not "${name}"`);
  // A ratio sampler without OTEL_TRACES_SAMPLER_ARG takes the default ratio.
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG?.trim() || defaultSampler.ratio);
  if (name.endsWith('traceidratio') && !(ratio >= 0 && ratio <= 1))
    throw problem(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not "${env.OTEL_TRACES_SAMPLER_ARG}"`);
  return { url, protocol, sampler: { name: name as TracingSettings['sampler']['name'], ratio } };
}

/** The stack frames of an exception's stack trace, without its first line(s): the message. */
const framesOnly = (type: string, stack: unknown) => {
  if (typeof stack !== 'string') return undefined;
  const at = stack.search(/\n\s+at /);
  return at >= 0 ? `${type}${stack.slice(at)}` : undefined;
};

/** A span as exported: exception events with their type and frames only, an error status without its message. */
export function scrubbed(span: ReadableSpan): ReadableSpan {
  const exceptions = span.events.some((e) => e.name === 'exception');
  if (!exceptions && span.status.message === undefined) return span;
  const events = span.events.map((event) => {
    if (event.name !== 'exception') return event;
    const type = String(event.attributes?.['exception.type'] ?? 'Error');
    const stacktrace = framesOnly(type, event.attributes?.['exception.stacktrace']);
    return {
      ...event,
      attributes: { 'exception.type': type, ...(stacktrace ? { 'exception.stacktrace': stacktrace } : {}) },
    };
  });
  return Object.create(span, { events: { value: events }, status: { value: { code: span.status.code } } });
}

/** Hands the exporter scrubbed spans. */
function scrubbing(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(scrubbed), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The contract's route of an answered API request (the validator matched it), as the OpenAPI path. */
const contractRoute = (request: unknown) =>
  (request as { openapi?: { openApiRoute?: unknown } }).openapi?.openApiRoute as string | undefined;

/**
 * Starts tracing when configured, else returns null having loaded nothing. Call it before express, pg or any
 * module that loads them is imported.
 */
export async function startTelemetry(env: Env = process.env): Promise<Telemetry | null> {
  const settings = tracingSettings(env);
  if (!settings) return null;
  const { url, protocol, sampler } = settings;
  const [api, core, hooks, sdk, resources, semconv, otlp, http, pg] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const logLevel = (env.OTEL_LOG_LEVEL ?? 'error').toUpperCase() as keyof typeof api.DiagLogLevel;
  api.diag.setLogger(new api.DiagConsoleLogger(), api.DiagLogLevel[logLevel] ?? api.DiagLogLevel.ERROR);

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the env detector) win over these.
  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        [semconv.ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME?.trim() || defaultServiceName,
        'cloud.region': env.REGION || 'eu-north-1',
        'deployment.environment.name': env.NODE_ENV || 'development',
      }),
    )
    .merge(resources.detectResources({ detectors: [resources.hostDetector, resources.envDetector] }));
  const root = sampler.name.endsWith('always_off')
    ? new sdk.AlwaysOffSampler()
    : sampler.name.endsWith('traceidratio')
      ? new sdk.TraceIdRatioBasedSampler(sampler.ratio)
      : new sdk.AlwaysOnSampler();
  const provider = new sdk.TracerProvider({
    resource,
    // parentbased_*: a request that arrives with a sampled (or unsampled) W3C traceparent follows its caller.
    sampler: sampler.name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: scrubbing(new otlp.OTLPTraceExporter({ url })) })],
  });
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);

  const instrumentations = [
    new http.HttpInstrumentation({
      // The region's own outbound calls go through undici (fetch), which this instrumentation does not see.
      disableOutgoingRequestInstrumentation: true,
      ignoreIncomingRequestHook: (request: IncomingMessage) => untraced.has((request.url ?? '').split('?')[0]),
      startIncomingSpanHook: (request: IncomingMessage) => {
        const target = request.url ?? '/';
        const at = target.indexOf('?');
        const path = at < 0 ? target : target.slice(0, at);
        return {
          [semconv.ATTR_URL_PATH]: tracedPath(path),
          ...(at >= 0 && at < target.length - 1 ? { [semconv.ATTR_URL_QUERY]: tracedQuery(target.slice(at + 1)) } : {}),
        };
      },
      // An API request's route is the contract's (the validator matched it).
      applyCustomAttributesOnSpan: (span, request) => {
        const route = contractRoute(request);
        if (!route) return;
        span.setAttribute(semconv.ATTR_HTTP_ROUTE, route);
        span.updateName(`${(request as IncomingMessage).method ?? 'GET'} ${route}`);
      },
    }),
    // Statement texts only (their values are parameters): enhancedDatabaseReporting would add the values.
    new pg.PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
  ];
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);

  // The handler span, named by the operationId. A failure is an error of the span unless it is the client's (an
  // ApiError below 500: a refused token, a missing row); its exception keeps its type and frames (scrubbed).
  const tracer = provider.getTracer(defaultServiceName);
  setHandlerTracer({
    run: (operationId, fn) =>
      tracer.startActiveSpan(`handler ${operationId}`, { attributes: { 'code.function.name': operationId } }, (span) =>
        fn().then(
          (value) => (span.end(), value),
          (error: unknown) => {
            const status = (error as { httpStatus?: unknown } | null)?.httpStatus;
            if (!(typeof status === 'number' && status < 500)) {
              if (error instanceof Error) span.recordException(error);
              span.setStatus({ code: api.SpanStatusCode.ERROR });
            }
            span.end();
            throw error;
          },
        ),
      ),
  });

  return {
    async shutdown(timeoutMs = 5_000) {
      setHandlerTracer(null);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch((error: unknown) => api.diag.error('tracing: shutdown failed', error)),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs).unref())),
      ]);
      clearTimeout(timer);
    },
  };
}
