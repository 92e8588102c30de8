// The process entry: tracing first, when configured (telemetry.ts: OTEL_EXPORTER_OTLP_ENDPOINT), then the region
// (serve.ts). Tracing's instrumentations patch http, express and pg as they are first required, so this file
// imports nothing else statically: serve.ts and everything it loads come after tracing has started.
import { failStart } from './startup-failure';
import { startTelemetry } from './telemetry';

async function main(): Promise<void> {
  const telemetry = await startTelemetry().catch((error: unknown) =>
    failStart({ problem: 'tracing', error, mode: null }),
  );
  const { serve } = await import('./serve.js');
  await serve(telemetry);
}

// What serve() does not name itself (it reports every step of the start) ends here, as one line too.
main().catch((error: unknown) => failStart({ problem: 'start', error, mode: null }));
