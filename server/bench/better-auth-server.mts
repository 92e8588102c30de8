// Better Auth (email + password) on the same PostgreSQL, for side-by-side numbers. Passwords use the same
// argon2id parameters as the core API, so the comparison is of everything around the hash. Two instances share
// the database: /api/auth with Better Auth's defaults, and /api/refresh whose every session check extends the
// session (updateAge 0), Better Auth's form of a sliding refresh.
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

const make = (basePath: string, updateAge: number) =>
  betterAuth({
    database: pool,
    secret: process.env.BETTER_AUTH_SECRET,
    baseURL,
    basePath,
    emailAndPassword: {
      enabled: true,
      password: { hash: (password: string) => argon2.hash(password, params), verify: ({ hash, password }: { hash: string; password: string }) => argon2.verify(hash, password) },
    },
    session: { expiresIn: 365 * 86_400, updateAge, cookieCache: { enabled: false } },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    telemetry: { enabled: false },
  });

const auth = make('/api/auth', 86_400);
const refreshing = make('/api/refresh', 0);
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const handleAuth = toNodeHandler(auth);
const handleRefresh = toNodeHandler(refreshing);
const server = http.createServer((req, res) => (req.url?.startsWith('/api/refresh') ? handleRefresh(req, res) : handleAuth(req, res)));
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
