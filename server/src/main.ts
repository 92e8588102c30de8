// The process entry: tracing first, when configured (telemetry.ts: OTEL_EXPORTER_OTLP_ENDPOINT), then the region
// (serve.ts). Tracing's instrumentations patch http, express and pg as they are first required, so this file
// imports nothing else statically: serve.ts and everything it loads come after tracing has started.
import { startTelemetry } from './telemetry';

async function main(): Promise<void> {
  const telemetry = await startTelemetry();
  const { serve } = await import('./serve.js');
  await serve(telemetry);
}

main().catch((error) => {
  console.error('core API failed to start:', error);
  process.exit(1);
});
