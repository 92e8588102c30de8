// One test file's world: config, a fresh database, services and the app (through supertest, so the validator
// runs on every request and response).
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { createApp, type AppOptions } from '../../src/app';
import { buildServices } from '../../src/bootstrap';
import { loadConfig, type Config } from '../../src/config';
import type { DatabaseHandle } from '../../src/db/database';
import { createLogger } from '../../src/logger';
import type { Services } from '../../src/services';
import { openTestDatabase, type TestBackend } from './database';

export interface TestContext {
  services: Services;
  app: Express;
  config: Config;
  database: DatabaseHandle;
  /** Everything logged, as JSON lines (for tests that check what is logged). */
  logs: string[];
  close(): Promise<void>;
}

export interface TestContextOptions extends AppOptions {
  env?: Record<string, string>;
  backend?: TestBackend;
  now?: () => Date;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const config = loadConfig({
    NODE_ENV: 'test',
    REGION: 'eu-north-1',
    DATA_DIR: ':memory:',
    PUBLIC_BASE_URL: 'http://127.0.0.1:4000',
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const database = await openTestDatabase(options.backend);
  const services = await buildServices(config, {
    database,
    logger: createLogger(config.logLevel, sink),
    now: options.now,
  });
  const app = createApp(services, options);
  return {
    services,
    app,
    config,
    database,
    logs,
    close: async () => {
      services.notifier.close();
      await services.outbound.close();
      await database.close();
    },
  };
}
