import type { Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { withAdvisoryLock } from './db/advisory-lock';
import { migrateToLatest } from './db/migrate';
import { registerJobHandlers } from './job-handlers';
import { JobScheduler } from './jobs/scheduler';
import { createLogger, type Logger } from './logger';
import { createNotifier } from './notify/notifier';
import { AccessTokens } from './security/access-tokens';
import { outboundClient, outboundPolicy } from './security/outbound';
import { resolveSecrets } from './security/secrets';
import { Throttle } from './security/throttle';
import type { Services } from './services';

/** The steps of a start, as a start-up failure names them (serve.ts). */
export type StartStage = 'secrets' | 'signing-keys' | 'database';

export interface BuildOptions {
  database?: DatabaseHandle;
  logger?: Logger;
  now?: () => Date;
  /** Told as each step begins, so a failure can be named by its step. */
  onStage?: (stage: StartStage) => void;
}

/** Opens the database, runs migrations and wires every service; shared by main.ts, tests and benchmarks. */
export async function buildServices(config: Config, options: BuildOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const stage = options.onStage ?? (() => undefined);
  stage('secrets');
  const secrets = await resolveSecrets(config);
  // The keys are checked before the database is touched: a bad key fails the start without a connection.
  stage('signing-keys');
  const tokens = await AccessTokens.create(
    secrets.signingKeys,
    config.publicBaseUrl,
    config.accessTokenTtlSeconds,
    config.accessTokenCacheSize,
  );
  stage('database');
  const database = options.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  await withAdvisoryLock(database, 'migrate', () => migrateToLatest(database.db, database.schema));
  const now = options.now ?? (() => new Date());
  const services: Services = {
    config,
    db: database.db,
    database,
    tokens,
    secretKey: secrets.secretKey,
    notifier: createNotifier(config, database.db),
    throttle: new Throttle(database.db, now),
    logger,
    now,
    jobs: new JobScheduler(database.db, { now, logger }),
    outbound: outboundClient(outboundPolicy(config.outboundAllowList)),
  };
  registerJobHandlers(services);
  return services;
}
