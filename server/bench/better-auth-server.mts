// Better Auth (email + password) on the same PostgreSQL, for side-by-side numbers. Passwords use the same
// argon2id parameters as the core API, so the comparison is of everything around the hash. Rate limiting is on
// and kept in the database, as the region's throttles are, keyed by the client address from X-Forwarded-For
// (the benchmark sends each client from its own address to both).
import http from 'node:http';
import argon2 from 'argon2';
import { Pool } from 'pg';
import { betterAuth } from 'better-auth';
import { toNodeHandler } from 'better-auth/node';
import { getMigrations } from 'better-auth/db/migration';

const port = Number(process.env.PORT);
const baseURL = `http://127.0.0.1:${port}`;
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const params = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const auth = betterAuth({
  database: pool,
  secret: process.env.BETTER_AUTH_SECRET,
  baseURL,
  basePath: '/api/auth',
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password: string) => argon2.hash(password, params),
      verify: ({ hash, password }: { hash: string; password: string }) => argon2.verify(hash, password),
    },
  },
  session: { expiresIn: 365 * 86_400, updateAge: 86_400, cookieCache: { enabled: false } },
  rateLimit: { enabled: true, storage: 'database' },
  advanced: { ipAddress: { ipAddressHeaders: ['x-forwarded-for'] } },
  logger: { disabled: true },
  telemetry: { enabled: false },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const server = http.createServer(toNodeHandler(auth));
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
