// Boot (loaded by main.ts once tracing, if configured, has started): config → database → migrations → app →
// listen; graceful shutdown on SIGTERM / SIGINT.
import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http/server';
import { startDraining } from './http/drain';
import { buildServices } from './bootstrap';
import { ConfigError, loadConfig, type Config } from './config';
import { withAdvisoryLock } from './db/advisory-lock';
import { seedDemoData } from './demo/seed';
import { listenForJobs } from './jobs/job-listener';
import { scheduleHousekeeping } from './jobs/housekeeping';
import { observeServices } from './metrics/metrics';
import { roundTrips } from './db/prepared';
import { doorPorts, errorShapes } from './modules/registry';
import { failStart, type StartProblem } from './startup-failure';
import { lowerThreadPoolPriority } from './security/thread-priority';
import type { Telemetry } from './telemetry';

export async function serve(telemetry: Telemetry | null): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (error.mode === 'development' || error.mode === 'test') {
      console.error(error.message);
      process.exit(1);
    }
    failStart({
      problem: 'configuration',
      error,
      mode: error.mode,
      instance: error.instanceId,
      problems: error.problems,
    });
  }
  let stage: StartProblem = 'start';
  const fail = (error: unknown): never =>
    failStart({ problem: stage, error, mode: config.mode, instance: config.instanceId });
  const services = await buildServices(config, { onStage: (s) => (stage = s) }).catch(fail);
  const { logger } = services;
  // Under a lock: instances started at once on an empty database would otherwise all seed, and all but one fail.
  stage = 'demo-data';
  if (config.seedDemoData) await withAdvisoryLock(services.database, 'seed', () => seedDemoData(services)).catch(fail);

  const app = createApp(services);
  stage = 'listen';
  const server: Server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app, config.runtime, {
      logger,
      errorShapes,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      ...doorPorts(services),
    });
    s.once('error', reject);
    s.listen({ port: config.port, host: config.host, backlog: config.runtime.listenBacklog }, () => resolve(s));
  }).catch(fail);
  server.keepAliveTimeout = 65_000;
  await lowerThreadPoolPriority(config.runtime.hashNice);
  // The validator compiles the contract on first use: pay that before real traffic arrives.
  await fetch(`http://127.0.0.1:${config.port}/core/v1/tenants`, { headers: { 'cosafe-core-api-version': '1' } }).catch(
    () => undefined,
  );
  // The ready line says what this start is: its mode, its database and where messages go.
  logger.info(
    {
      region: config.region,
      url: config.publicBaseUrl,
      mode: config.mode,
      database: services.database.kind,
      transport: config.notify.transport,
      instance: config.instanceId,
    },
    `core API listening (${config.mode} mode, ${services.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'} database, messages ${config.notify.transport === 'live' ? 'sent live' : 'kept in the development outbox'})`,
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
