// Several instances of one region on one PostgreSQL server behind HAProxy (Debian's package), health-checked on
// /readyz: what `npm run cluster` starts, and what the fault checks and the cluster test run against.
// The instances share one set of secrets (generated here, given through the environment as production does), so
// a token signed by one is accepted by every other.
// HAProxy refuses the excess itself, in microseconds, instead of letting it wait (docs/decisions/
// 2026-11-29-proxy-refuses-the-excess.md): each instance takes at most `serverMaxconn` requests at once (what one
// instance serves best at once: beyond it answers only wait longer), at most `serverMaxqueue` more wait for it, and
// no longer than `queueMs`; a request for which no slot and no place in a queue is free is answered 503 with
// Retry-After at once, in the platform's envelope, and so is one whose queue time ran out. A request whose connection
// failed or came back empty is retried on another instance (the door refuses before it reads a body, and an empty
// answer means the instance died: nothing was answered), an instance that refuses connections is checked again at
// once, and one that fails two checks 500 ms apart (a /readyz that answers 503 while it drains, or none) is taken
// out; a restarted one takes its share over 2 s (a cold instance is slower).
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

/** The platform's refusal (the door's own: http/admission.ts), for HAProxy to answer in its name. */
const busyBody = JSON.stringify({
  status: 'error',
  error: { httpStatus: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is busy; try again in a moment' },
});

/** What HAProxy lets each instance hold (see the top of this file); the environment can set each. */
export const proxyLimits = (env = process.env) => ({
  serverMaxconn: Number(env.CLUSTER_SERVER_MAXCONN ?? 32),
  serverMaxqueue: Number(env.CLUSTER_SERVER_MAXQUEUE ?? 32),
  queueMs: Number(env.CLUSTER_QUEUE_MS ?? 25),
  signInMaxconn: Number(env.CLUSTER_SIGNIN_MAXCONN ?? 8),
  crisisMaxconn: Number(env.CLUSTER_CRISIS_MAXCONN ?? 16),
});

export function haproxyConfig({ port, statsPort, instances, limits = proxyLimits() }) {
  const refusal = `status 503 content-type "application/json; charset=utf-8" string '${busyBody}' hdr Retry-After 1 hdr Cache-Control no-store`;
  const servers = (maxconn, extra = '') =>
    instances.map((i, n) => `  server i${n + 1} 127.0.0.1:${i.port} check maxconn ${maxconn}${extra}`).join('\n');
  return `global
  maxconn 8192
  log stderr format short local0 warning

defaults
  mode http
  maxconn 8192
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout http-request 10s
  timeout http-keep-alive 65s
  timeout queue ${limits.queueMs}ms
  # The client's address, appended to X-Forwarded-For: the instances trust this one hop (TRUST_PROXY=1).
  option forwardfor
  option redispatch 1
  retries 2
  retry-on conn-failure empty-response
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 500ms fastinter 200ms downinter 1s fall 2 rise 2 slowstart 2s observe layer4 error-limit 3 on-error fastinter
  # A queue time that ran out, or no instance up: the platform's refusal, with a time to retry.
  http-error ${refusal}

frontend api
  bind 127.0.0.1:${port}
  # The door's classes (server/src/http/admission.ts), by the exact, case-sensitive paths its router runs: crisis
  # work waits its turn and is never refused here; argon2-bound work has slots of its own, so a wave of sign-ins
  # never takes the slots of signed-in users.
  acl crisis method POST path /core/v1/personal-alarms /core/v1/external-communications/messages
  acl crisis method POST path_reg ^/core/v1/personal-alarms/[^/]+/activate$
  acl crisis method PATCH path_reg ^/core/v1/personal-alarms/[^/]+$
  acl hashing method POST path /core/v1/sessions
  acl hashing method POST path_reg ^/core/v1/(sessions/[^/]+/reauthentication|probes/hash/[^/]+|users/[^/]+/password-(set|reset))$
  acl no_password req.hdr(cosafe-grant-type) -m str passkey coAlertCode sso
  use_backend crisis if crisis
  use_backend hashing if hashing !no_password
  default_backend instances

backend instances
  balance leastconn
  # Every instance's slots and queue places taken: refused at once, not queued.
  http-request return ${refusal} if { connslots lt 1 }
${servers(limits.serverMaxconn, ` maxqueue ${limits.serverMaxqueue}`)}

backend hashing
  balance leastconn
  http-request return ${refusal} if { connslots lt 1 }
${servers(limits.signInMaxconn, ` maxqueue ${limits.signInMaxconn}`)}

backend crisis
  balance leastconn
  # Waits for a slot as long as the instances answer at all: whoever is in danger is never refused.
  timeout queue 30s
${servers(limits.crisisMaxconn)}

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
    // HAProxy appends the client's address (option forwardfor): the one hop to trust.
    TRUST_PROXY: '1',
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
