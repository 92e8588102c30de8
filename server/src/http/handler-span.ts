// The handler span of a traced request: one span per API operation, under the HTTP server span, around the
// authentication and the handler, so that the request's database statements hang under it. Tracing (telemetry.ts)
// registers the tracer when it starts; without tracing, runInHandlerSpan only calls the function. This file
// imports nothing, so tracing can register itself before express or pg are loaded.

export interface HandlerTracer {
  /** Runs `fn` inside a span named for the operation; the span ends when the promise settles. */
  run<T>(operationId: string, fn: () => Promise<T>): Promise<T>;
}

let tracer: HandlerTracer | null = null;

/** Called by tracing when it starts (and with null when it stops). */
export function setHandlerTracer(next: HandlerTracer | null): void {
  tracer = next;
}

export function runInHandlerSpan<T>(operationId: string, fn: () => Promise<T>): Promise<T> {
  return tracer ? tracer.run(operationId, fn) : fn();
}
