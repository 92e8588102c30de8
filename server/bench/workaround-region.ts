// A region on PostgreSQL, in this forked process, with one workaround of library internals left out
// (WITHOUT=route-matcher-cache, or none): what the workarounds part of `npm run bench` measures side by side.
import http from 'node:http';
import { createApp, type Workaround } from '../src/app';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { seedDemoData } from '../src/demo/seed';

(async () => {
  const without = (process.env.WITHOUT === 'none' ? undefined : process.env.WITHOUT) as Workaround | undefined;
  const config = loadConfig({
    NODE_ENV: 'development',
    REGION: 'eu-north-1',
    LOG_LEVEL: 'warn',
    VALIDATE_RESPONSES: 'false',
    DATABASE_URL: process.env.DATABASE_URL!,
    PORT: process.env.PORT!,
  });
  const services = await buildServices(config);
  await seedDemoData(services);
  const app = createApp(services, { without });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
  process.on('SIGTERM', () => server.close(() => void services.database.close().then(() => process.exit(0))));
})();
