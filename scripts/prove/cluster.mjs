// Several instances of one region on one PostgreSQL server behind HAProxy (Debian's package), health-checked on
// /readyz: what `npm run cluster` starts, and what the fault checks and the cluster test run against.
// The instances share one set of secrets (generated here, given through the environment as production does), so
// a token signed by one is accepted by every other. HAProxy retries a request whose connection failed or came
// back empty on another instance (a killed instance costs no failed request), and takes an instance out after
// two failed checks 500 ms apart.
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPrivatePostgres } from './postgres.mjs';
import { freePort, sleep, startRegion, tempDir, waitFor } from './region.mjs';

export const haproxyBinary = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((p) => existsSync(p)) ?? null;

export function clusterSecrets(region = 'eu-north-1') {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return {
    ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([{ ...jwk, kid: `${region}-cluster-1`, alg: 'ES256', use: 'sig' }]),
    SECRET_KEY: randomBytes(32).toString('base64'),
  };
}

function haproxyConfig({ port, statsPort, instances }) {
  return `global
  maxconn 4096
  log stderr format short local0 warning

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout http-request 10s
  timeout queue 5s
  option redispatch
  retries 3
  retry-on conn-failure empty-response
  option httpchk GET /readyz
  default-server inter 500ms fall 2 rise 2 maxconn 256

frontend api
  bind 127.0.0.1:${port}
  default_backend instances

backend instances
  balance roundrobin
${instances.map((i, n) => `  server i${n + 1} 127.0.0.1:${i.port} check`).join('\n')}

frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

/**
 * Starts PostgreSQL (private, unless `databaseUrl` is given), `instances` regions on it (started at once: they
 * must cope with an empty database together) and HAProxy. Answers { url, instances, pg, haproxy, restart(i),
 * kill9(i), stop() }. `basePort` fixes the ports (HAProxy on it, its statistics on the next, instance n on
 * basePort + 10 + n); without it free ports are taken. `build: 'dist'` runs the production build (in development mode,
 * with its demo data), `production: true` the same build in production mode. stop() removes
 * the temporary folders (the instances' data and HAProxy's configuration).
 */
export async function startCluster({
  instances = 3,
  databaseUrl,
  env = {},
  region = 'eu-north-1',
  log = () => undefined,
  basePort,
  build = 'source',
  production = false,
} = {}) {
  if (!haproxyBinary) throw new Error('haproxy is not installed (apt-get install haproxy)');
  const pg = databaseUrl ? null : await startPrivatePostgres({ database: 'core' });
  const url = databaseUrl ?? pg.url;
  log(`PostgreSQL ${url}`);
  // One public URL (HAProxy's) for all: tokens name it as their issuer and audience.
  const port = basePort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const shared = {
    DATABASE_URL: url,
    PUBLIC_BASE_URL: baseUrl,
    DRAIN_DELAY_MS: '1200',
    ...clusterSecrets(region),
    ...env,
  };
  const dataDir = tempDir('core-cluster-');
  const ports = basePort
    ? Array.from({ length: instances }, (_, n) => basePort + 11 + n)
    : await Promise.all(Array.from({ length: instances }, () => freePort()));
  const start = (n) =>
    startRegion({ region, port: ports[n], dataDir, build, production, env: { ...shared, INSTANCE: `i${n + 1}` } });
  const nodes = await Promise.all(ports.map((_, n) => start(n)));
  log(`${instances} instances ready on ports ${ports.join(', ')}`);

  const statsPort = basePort ? basePort + 1 : await freePort();
  const dir = tempDir('core-haproxy-');
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig({ port, statsPort, instances: nodes }));
  execFileSync(haproxyBinary, ['-c', '-q', '-f', cfg]);
  const haproxy = spawn(haproxyBinary, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let haproxyLog = '';
  haproxy.stderr.on('data', (c) => (haproxyLog = (haproxyLog + c).slice(-100_000)));
  const haproxyExited = new Promise((r) => haproxy.once('exit', r));
  await waitFor(
    'HAProxy to serve /readyz',
    async () => (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200,
    { timeoutMs: 20_000 },
  );
  log(`HAProxy on ${baseUrl} (stats ${`http://127.0.0.1:${statsPort}/stats`})`);

  const cluster = {
    url: baseUrl,
    statsUrl: `http://127.0.0.1:${statsPort}/stats`,
    databaseUrl: url,
    pg,
    instances: nodes,
    get haproxyLog() {
      return haproxyLog;
    },
    /** kill -9 of instance n: no shutdown, in-flight work abandoned. */
    async kill9(n) {
      await nodes[n].kill9();
    },
    /** (Re)starts instance n on its port. */
    async startInstance(n) {
      nodes[n] = await start(n);
      return nodes[n];
    },
    /** SIGTERM (drain: in-flight requests finish, jobs hand over), then start it again and wait until HAProxy uses it. */
    async restart(n) {
      await nodes[n].stop();
      await cluster.startInstance(n);
      await sleep(1_500); // two health checks: back in rotation
    },
    async stop() {
      haproxy.kill('SIGTERM');
      await Promise.race([haproxyExited, sleep(5_000)]);
      await Promise.all(nodes.map((node) => node.stop().catch(() => undefined)));
      await pg?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
