// Boot: config → database → migrations → app → listen; graceful shutdown on SIGTERM / SIGINT.
import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http/server';
import { buildServices } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { seedDemoData } from './db/seed';

async function main(): Promise<void> {
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
  if (config.mode === 'development' && process.env.SEED_DEMO_DATA !== 'false') await seedDemoData(services);

  const app = createApp(services);
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer(app);
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  // The validator compiles the contract on first use: pay that before real traffic arrives.
  await fetch(`http://127.0.0.1:${config.port}/core/v1/tenants`, { headers: { 'cosafe-core-api-version': '1' } }).catch(() => undefined);
  logger.info({ region: config.region, url: config.publicBaseUrl, database: services.database.kind }, 'core API listening');
  // Durable jobs (message delivery, personal alarms); whatever fell due while the region was down runs now.
  services.jobs.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => server.closeAllConnections(), 10_000).unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(force);
    await services.jobs.stop();
    services.notifier.close();
    await services.database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error('core API failed to start:', error);
  process.exit(1);
});
