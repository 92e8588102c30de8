// Boot (loaded by main.ts once tracing, if configured, has started): config → database → migrations → app →
// listen; graceful shutdown on SIGTERM / SIGINT.
import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http/server';
import { startDraining } from './http/drain';
import { buildServices } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { withAdvisoryLock } from './db/advisory-lock';
import { seedDemoData } from './demo/seed';
import { listenForJobs } from './jobs/job-listener';
import { scheduleHousekeeping } from './jobs/housekeeping';
import { observeServices } from './metrics/metrics';
import { roundTrips } from './db/prepared';
import type { Telemetry } from './telemetry';

export async function serve(telemetry: Telemetry | null): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const services = await buildServices(config);
  const { logger } = services;
  // Under a lock: instances started at once on an empty database would otherwise all seed, and all but one fail.
  if (config.seedDemoData) await withAdvisoryLock(services.database, 'seed', () => seedDemoData(services));

  const app = createApp(services);
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(app, config.runtime, config.corsOrigins);
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  // The validator compiles the contract on first use: pay that before real traffic arrives.
  await fetch(`http://127.0.0.1:${config.port}/core/v1/tenants`, { headers: { 'cosafe-core-api-version': '1' } }).catch(
    () => undefined,
  );
  logger.info(
    { region: config.region, url: config.publicBaseUrl, database: services.database.kind },
    'core API listening',
  );
  // A region forked by the benchmark (server/bench) tells it how many statements it has sent, when asked.
  if (process.send)
    process.on(
      'message',
      (message) => void (message === 'round-trips' && process.send?.({ roundTrips: roundTrips.count })),
    );
  // Durable jobs (message delivery, personal alarms); whatever fell due while the region was down runs now.
  observeServices(services);
  services.jobs.start();
  // Housekeeping once an hour across all instances (one job per hour, whoever enqueues it first).
  await scheduleHousekeeping(services);
  // On PostgreSQL, new work from any instance wakes this one (LISTEN/NOTIFY) instead of polling.
  const jobListener = config.databaseUrl ? listenForJobs(config.databaseUrl, services.jobs, logger) : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // Out of the load balancer's rotation first (its checks see /readyz 503), then stop accepting.
    startDraining();
    if (config.runtime.drainDelayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, config.runtime.drainDelayMs));
    const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(force);
    await jobListener?.close();
    await services.jobs.stop();
    services.notifier.close();
    await services.outbound.close();
    await services.database.close();
    // The spans of the last requests and jobs go to the collector before the process ends.
    await telemetry?.shutdown();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
