// The only reader of process.env for configuration: every variable is declared here as a zod schema, validated at
// boot and reported together, so a bad deployment fails fast with every problem named; production refuses to start
// without its secrets. The Config type is what toConfig builds from the parsed variables.
import type { JsonWebKey } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export const regions = ['eu-north-1', 'se-sto', 'sa-east-1'] as const;
export type RegionId = (typeof regions)[number];
export const modes = ['production', 'development', 'test'] as const;
export type Mode = (typeof modes)[number];

/** Where each region's people are: the time zone messages write times in unless TIME_ZONE says otherwise. */
const regionTimeZones: Record<RegionId, string> = {
  'eu-north-1': 'Europe/Stockholm',
  'se-sto': 'Europe/Stockholm',
  'sa-east-1': 'America/Sao_Paulo',
};

// Every variable the server reads, as text in the environment: an empty value counts as unset. Each is parsed by
// its own schema, so every bad variable is named at once; the rules that join several variables (production's
// required secrets, pairs that go together) are checked after, on what parsed.
/** argon2 hashes at once by default: one core fewer than the machine has (the event loop keeps one), at least one. */
const defaultHashConcurrency = () => Math.max(1, availableParallelism() - 1);

const given = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(given, schema.optional());

const integer = (min: number, max: number) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?[0-9]+$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
};
const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value), 'is not a valid URL')
  .refine(
    (value) => !URL.canParse(value) || /^(https?|postgres|postgresql|smtps?):$/.test(new URL(value).protocol),
    'has an unsupported scheme',
  )
  .transform((value) => value.replace(/\/$/, ''));
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean),
);
/** PEM text given on one line with \n escapes. */
const pem = z.string().transform((value) => value.replace(/\\n/g, '\n'));
const flag = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((value) => value === 'true');

/** A time zone name Intl knows (IANA: Europe/Stockholm). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A private signing key as a JSON Web Key (RFC 7517): node:crypto reads and writes the key itself. */
export type SigningJwk = JsonWebKey & { kid?: string; alg?: string; use?: string };

/** ACCESS_TOKEN_SIGNING_KEYS: a JSON array of private JWKs, newest (active) first, each with a kid. */
const signingKeys = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
  })
  .refine(
    (keys) =>
      Array.isArray(keys) &&
      keys.length > 0 &&
      keys.every((key) => typeof key?.kid === 'string' && key.kid !== '' && typeof key.d === 'string' && key.d !== ''),
    'must be a non-empty JSON array of private JWKs, each with a kid',
  )
  .transform((keys) => keys as SigningJwk[]);

/** pino's levels, and silent. */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const secretKey = z
  .string()
  .refine((value) => Buffer.from(value, 'base64').length >= 32, 'must decode to at least 32 bytes (base64)');

const variables = z.object({
  // Exactly one of these: a misspelt production (`Production`, `prod`) would otherwise run in development mode.
  NODE_ENV: optional(z.enum(modes, { message: `must be one of ${modes.join(', ')}` })),
  DEV_ALLOW_REMOTE_DATABASE: optional(flag),
  INSTANCE_ID: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, colons, dashes or underscores'),
  ),
  REGION: optional(z.enum(regions, { message: `must be one of ${regions.join(', ')}` })),
  PORT: optional(integer(0, 65535)),
  HOST: optional(z.string()),
  PUBLIC_BASE_URL: optional(httpUrl),
  DATABASE_URL: optional(httpUrl),
  DATA_DIR: optional(z.string()),
  SIGN_IN_APP_URL: optional(httpUrl),
  TIME_ZONE: optional(z.string().refine(isTimeZone, 'must be an IANA time zone name, such as Europe/Stockholm')),
  CORS_ORIGINS: optional(list),
  REDIRECT_ALLOW_LIST: optional(list),
  BODY_LIMIT: optional(z.string()),
  LOG_LEVEL: optional(z.enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` })),
  TRUST_PROXY: optional(z.string()),
  ACCESS_TOKEN_SIGNING_KEYS: optional(signingKeys),
  SECRET_KEY: optional(secretKey),
  NOTIFY_TRANSPORT: optional(z.enum(['outbox', 'live'], { message: 'must be outbox or live' })),
  SMTP_URL: optional(httpUrl),
  EMAIL_FROM: optional(z.string()),
  SMS_API_URL: optional(httpUrl),
  SMS_API_TOKEN: optional(z.string()),
  SMS_SENDER: optional(z.string()),
  VOICE_API_URL: optional(httpUrl),
  VOICE_API_TOKEN: optional(z.string()),
  PUSH_API_URL: optional(httpUrl),
  PUSH_API_TOKEN: optional(z.string()),
  ACCESS_TOKEN_TTL_SECONDS: optional(integer(30, 3600)),
  ACCESS_TOKEN_CACHE_SIZE: optional(integer(0, 10_000_000)),
  BENCH_USERS: optional(integer(0, 100_000)),
  VALIDATE_RESPONSES: optional(z.string()),
  SEED_DEMO_DATA: optional(flag),
  SAML_SP_PRIVATE_KEY: optional(pem),
  SAML_SP_CERTIFICATE: optional(pem),
  SKOLON_ISSUER: optional(httpUrl),
  SKOLON_AUTHORIZATION_URL: optional(httpUrl),
  SKOLON_TOKEN_URL: optional(httpUrl),
  SKOLON_JWKS_URL: optional(httpUrl),
  SKOLON_USERINFO_URL: optional(httpUrl),
  SKOLON_CLIENT_ID: optional(z.string()),
  SKOLON_CLIENT_SECRET: optional(z.string()),
  DEV_SSO_ISSUER: optional(httpUrl),
  DEV_SSO_CLIENT_ID: optional(z.string()),
  DEV_SSO_CLIENT_SECRET: optional(z.string()),
  OUTBOUND_ALLOWED_ADDRESSES: optional(z.string()),
  PASSWORD_BREACH_RANGE_URL: optional(httpUrl),
  METRICS_TOKEN: optional(z.string()),
  JOB_RETENTION_DAYS: optional(integer(1, 3650)),
  SECURITY_EVENT_RETENTION_DAYS: optional(integer(1, 3650)),
  MIN_IN_FLIGHT: optional(integer(1, 100_000)),
  MAX_IN_FLIGHT: optional(integer(1, 100_000)),
  IN_FLIGHT_LATENCY_MS: optional(integer(1, 60_000)),
  MAX_QUEUED: optional(integer(0, 1_000_000)),
  QUEUE_DEADLINE_MS: optional(integer(0, 60_000)),
  MAX_CONNECTIONS: optional(integer(1, 1_000_000)),
  QUEUE_TARGET_MS: optional(integer(1, 60_000)),
  QUEUE_INTERVAL_MS: optional(integer(1, 60_000)),
  LISTEN_BACKLOG: optional(integer(1, 65_535)),
  HASH_CONCURRENCY: optional(integer(1, 1_024)),
  HASH_QUEUE: optional(integer(0, 100_000)),
  HASH_NICE: optional(integer(0, 19)),
  MAX_CONNECTIONS_PER_CLIENT: optional(integer(0, 1_000_000)),
  MAX_PENDING_HEADERS_PER_CLIENT: optional(integer(0, 1_000_000)),
  HEADERS_TIMEOUT_MS: optional(integer(1_000, 120_000)),
  REQUEST_TIMEOUT_MS: optional(integer(1_000, 600_000)),
  DRAIN_DELAY_MS: optional(integer(0, 60_000)),
  CLIENT_IPV6_PREFIX: optional(integer(56, 64)),
  ALARMS_PER_SENDER_PER_HOUR: optional(integer(1, 1_000_000)),
  EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR: optional(integer(1, 1_000_000)),
  EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR: optional(integer(1, 1_000_000)),
  ALARM_REPEAT_WINDOW_SECONDS: optional(integer(0, 3_600)),
  UNUSUAL_ALARMS_PER_HOUR: optional(integer(1, 1_000_000)),
  UNUSUAL_MESSAGES_PER_HOUR: optional(integer(1, 1_000_000)),
  UNUSUAL_VOLUME_FACTOR: optional(integer(2, 1_000)),
  WEBAUTHN_RP_ID: optional(
    z
      .string()
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
        'must be a domain name, such as login.example.com (no scheme, port or path)',
      ),
  ),
  WEBAUTHN_RP_NAME: optional(z.string().max(100, 'must be at most 100 characters')),
  WEBAUTHN_ORIGINS: optional(list),
});

type Variables = z.output<typeof variables>;

const skolonNames = [
  'SKOLON_ISSUER',
  'SKOLON_AUTHORIZATION_URL',
  'SKOLON_TOKEN_URL',
  'SKOLON_JWKS_URL',
  'SKOLON_USERINFO_URL',
  'SKOLON_CLIENT_ID',
  'SKOLON_CLIENT_SECRET',
] as const;

/** Where the sign-in app's development server runs. */
const devCorsOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/** Defaults shared with scripts/dev-idp.mjs. */
export const devIdpDefaults = {
  clientId: 'sign-in-dev',
  clientSecret: 'dev-sso-client-secret-not-for-production',
} as const;

/** The configuration from the parsed variables; rules across variables add to `problems`. */
function toConfig(v: Variables, problems: string[]) {
  const mode: Mode = v.NODE_ENV ?? 'development';
  const dev = mode !== 'production';
  if (!dev && v.DEV_ALLOW_REMOTE_DATABASE !== undefined)
    problems.push('DEV_ALLOW_REMOTE_DATABASE is for development and tests only; remove it in production');
  if (dev && v.DATABASE_URL && !isLocalDatabase(v.DATABASE_URL) && v.DEV_ALLOW_REMOTE_DATABASE !== true)
    problems.push(
      `DATABASE_URL is not a local database: development mode there needs DEV_ALLOW_REMOTE_DATABASE=true (NODE_ENV is ${mode}${v.NODE_ENV ? '' : ' by default'}; a deployment sets NODE_ENV=production)`,
    );
  const region: RegionId = v.REGION ?? 'eu-north-1';
  const port = v.PORT ?? 4000;

  const publicBaseUrl = v.PUBLIC_BASE_URL ?? (dev ? `http://localhost:${port}` : null);
  if (!publicBaseUrl)
    problems.push('PUBLIC_BASE_URL is required in production (the URL clients use to reach this region)');
  const signInAppUrl = v.SIGN_IN_APP_URL ?? (dev ? 'http://localhost:5173' : null);
  if (!signInAppUrl) problems.push('SIGN_IN_APP_URL is required in production (links in emails point to it)');

  const transport = v.NOTIFY_TRANSPORT ?? (dev ? 'outbox' : 'live');
  if (!dev && transport === 'outbox') problems.push('NOTIFY_TRANSPORT=outbox is for development only');
  if (transport === 'live') {
    if (!v.SMTP_URL) problems.push('SMTP_URL is required when NOTIFY_TRANSPORT=live');
    if (!v.SMS_API_URL) problems.push('SMS_API_URL is required when NOTIFY_TRANSPORT=live');
  }

  if (!dev) {
    if (!v.ACCESS_TOKEN_SIGNING_KEYS)
      problems.push('ACCESS_TOKEN_SIGNING_KEYS is required in production (JSON array of private JWKs, newest first)');
    if (!v.SECRET_KEY) problems.push('SECRET_KEY is required in production (at least 32 random bytes, base64)');
    if (!v.DATABASE_URL) problems.push('DATABASE_URL is required in production');
  }

  if (Boolean(v.SAML_SP_PRIVATE_KEY) !== Boolean(v.SAML_SP_CERTIFICATE))
    problems.push('SAML_SP_PRIVATE_KEY and SAML_SP_CERTIFICATE go together');
  const skolonGiven = skolonNames.filter((name) => v[name] !== undefined);
  if (skolonGiven.length > 0 && skolonGiven.length < skolonNames.length)
    problems.push(
      `Skolon needs all of ${skolonNames.join(', ')} (missing: ${skolonNames.filter((n) => !skolonGiven.includes(n)).join(', ')})`,
    );
  const skolon =
    skolonGiven.length === skolonNames.length
      ? {
          issuer: v.SKOLON_ISSUER!,
          authorizationEndpoint: v.SKOLON_AUTHORIZATION_URL!,
          tokenEndpoint: v.SKOLON_TOKEN_URL!,
          jwksUri: v.SKOLON_JWKS_URL!,
          userInfoEndpoint: v.SKOLON_USERINFO_URL!,
          clientId: v.SKOLON_CLIENT_ID!,
          clientSecret: v.SKOLON_CLIENT_SECRET!,
        }
      : null;

  const webauthn = webauthnConfig(v, dev, signInAppUrl, problems);
  const trustProxy = trustProxyConfig(v.TRUST_PROXY ?? null, problems);
  // Behind a proxy the sockets are the proxy's: a per-client share of them holds only when set explicitly.
  const directClients = trustProxy === 0;

  return {
    mode,
    region,
    /** Names this process in log lines (several instances of a region share one log). */
    instanceId: v.INSTANCE_ID ?? defaultInstanceId(),
    port,
    host: v.HOST ?? (dev ? '127.0.0.1' : '0.0.0.0'),
    publicBaseUrl: publicBaseUrl ?? '',
    databaseUrl: v.DATABASE_URL ?? null,
    /** PGlite data directory; null means in memory (tests). */
    dataDir: v.DATA_DIR === ':memory:' ? null : resolve(v.DATA_DIR ?? `data/${region}`),
    signInAppUrl: signInAppUrl ?? '',
    /** IANA time zone of the times written in messages (an alarm's "ran out at"); by default the region's. */
    timeZone: v.TIME_ZONE ?? regionTimeZones[region] ?? 'UTC',
    corsOrigins: v.CORS_ORIGINS ?? (dev ? devCorsOrigins : []),
    redirectAllowList: v.REDIRECT_ALLOW_LIST ?? (dev ? ['http://localhost:5173/'] : []),
    bodyLimit: v.BODY_LIMIT ?? '100kb',
    logLevel: v.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    /**
     * Which X-Forwarded-For entries name the client: a hop count (the proxies in front of the service; 0 means
     * none, the connection's address is the client) or the addresses/CIDRs of the trusted proxies. Never "all".
     */
    trustProxy,
    /**
     * Secrets given by the environment, validated here; development generates missing ones and keeps them in
     * dataDir (security/secrets.ts).
     */
    secrets: { signingKeys: v.ACCESS_TOKEN_SIGNING_KEYS ?? null, secretKey: v.SECRET_KEY ?? null },
    notify: {
      transport,
      smtpUrl: v.SMTP_URL ?? null,
      emailFrom: v.EMAIL_FROM ?? 'no-reply@localhost',
      smsApiUrl: v.SMS_API_URL ?? null,
      smsApiToken: v.SMS_API_TOKEN ?? null,
      smsSender: v.SMS_SENDER ?? 'Alarm',
      voiceApiUrl: v.VOICE_API_URL ?? null,
      voiceApiToken: v.VOICE_API_TOKEN ?? null,
      pushApiUrl: v.PUSH_API_URL ?? null,
      pushApiToken: v.PUSH_API_TOKEN ?? null,
    },
    accessTokenTtlSeconds: v.ACCESS_TOKEN_TTL_SECONDS ?? 900,
    /** Access tokens whose signature check is remembered until they expire (about the clients active at once). */
    accessTokenCacheSize: v.ACCESS_TOKEN_CACHE_SIZE ?? 10_000,
    /** Check every response against the contract (development and tests; off in production for speed). */
    validateResponses: (v.VALIDATE_RESPONSES ?? (dev ? 'true' : 'false')) === 'true',
    /** Development only: extra demo users bench-<n>@demo.test for load runs. */
    benchUsers: dev ? (v.BENCH_USERS ?? 0) : 0,
    /** Development only: the demo data is seeded at start unless SEED_DEMO_DATA=false. */
    seedDemoData: mode === 'development' && v.SEED_DEMO_DATA !== false,
    sso: {
      /** Outside production identity providers may be reached over plain http (local test peers). */
      allowInsecureHttp: dev,
      /** Optional SAML service provider key pair (PEM): signs AuthnRequests and is published in the metadata. */
      samlSpPrivateKey: v.SAML_SP_PRIVATE_KEY ?? null,
      samlSpCertificate: v.SAML_SP_CERTIFICATE ?? null,
      /** Skolon is one OAuth client for the whole region; null when not configured. */
      skolon,
      /**
       * Development only (never read in production): the development identity provider (scripts/dev-idp.mjs) at
       * DEV_SSO_ISSUER, which the demo seed binds to the domain sso.demo.test; client id and secret are shared
       * with it through DEV_SSO_CLIENT_ID and DEV_SSO_CLIENT_SECRET (same defaults there). Null when unset.
       */
      devIdp:
        dev && v.DEV_SSO_ISSUER
          ? {
              issuer: v.DEV_SSO_ISSUER,
              clientId: v.DEV_SSO_CLIENT_ID ?? devIdpDefaults.clientId,
              clientSecret: v.DEV_SSO_CLIENT_SECRET ?? devIdpDefaults.clientSecret,
            }
          : null,
    },
    /**
     * Internal addresses (CIDRs) that requests to tenant-configured URLs may reach anyway: outside production only
     * (loopback by default, where the development identity provider and test peers run); always empty in
     * production, where only public addresses are reached (security/outbound.ts).
     */
    outboundAllowList: outboundAllowListConfig(v.OUTBOUND_ALLOWED_ADDRESSES ?? null, dev, problems),
    /**
     * A breach service's k-anonymity range endpoint (the Pwned Passwords range API, e.g.
     * https://api.pwnedpasswords.com/range/) new passwords are also checked against; null (the default): only the
     * shipped list of common passwords (modules/passwords/breach-list.ts).
     */
    passwordBreachRangeUrl: v.PASSWORD_BREACH_RANGE_URL ?? null,
    /**
     * What members may send, per hour (security/sending-quotas.ts; docs/security.md): personal alarms created per
     * sender (an alarm that goes off now is never counted nor refused), external messages per sender and the
     * tenant's higher ceiling over all its senders (which a tenant administrator can lift for an hour).
     */
    quotas: {
      alarmsPerSenderPerHour: v.ALARMS_PER_SENDER_PER_HOUR ?? 60,
      externalMessagesPerSenderPerHour: v.EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR ?? 30,
      externalMessagesPerTenantPerHour: v.EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR ?? 300,
    },
    /**
     * Abuse bounded in the fan-out rather than at the request (modules/personal-alarms/personal-alarms.repeats.ts):
     * alarms of one owner to the same recipients within this many seconds after one was delivered collapse into one
     * summary that says how many (0: every alarm is delivered on its own). A tenant's administrators are told
     * when an hour's alarms raised or external messages sent reach max(the floor, factor × the tenant's usual count
     * an hour over the week before), at most once per tenant, kind and hour (notify/unusual-volume.ts).
     */
    fanOut: {
      alarmRepeatWindowSeconds: v.ALARM_REPEAT_WINDOW_SECONDS ?? 60,
      unusualVolume: {
        alarmsPerHour: v.UNUSUAL_ALARMS_PER_HOUR ?? 100,
        messagesPerHour: v.UNUSUAL_MESSAGES_PER_HOUR ?? 60,
        factor: v.UNUSUAL_VOLUME_FACTOR ?? 5,
      },
    },
    /** Passkeys (WebAuthn): the relying party and the sign-in app's origins its ceremonies must come from. */
    webauthn,
    /** Operations: metrics, housekeeping, overload and connection bounds. */
    runtime: {
      /** Bearer token for GET /metrics; required in production, where the endpoint is off without it. */
      metricsToken: v.METRICS_TOKEN ?? null,
      /** Finished jobs (done, failed, cancelled) are removed this many days after they finished. */
      jobRetentionDays: v.JOB_RETENTION_DAYS ?? 7,
      /** Security events (modules/security-events) are removed by housekeeping this many days after they happened. */
      securityEventRetentionDays: v.SECURITY_EVENT_RETENTION_DAYS ?? 180,
      /**
       * Admission control (http/admission.ts): requests of signed-in users and the rest handled at once, adapted
       * between minInFlight (below it nothing is refused) and maxInFlight to what completes per second ×
       * inFlightLatencyMs; more wait in a queue, at most maxQueued of them, each at most queueDeadlineMs while the
       * queue drains, or queueTargetMs once it stands (neither emptied nor shrunk over queueIntervalMs); then 503
       * with Retry-After.
       */
      minInFlight: Math.min(v.MIN_IN_FLIGHT ?? 8, v.MAX_IN_FLIGHT ?? 128),
      maxInFlight: v.MAX_IN_FLIGHT ?? 128,
      inFlightLatencyMs: v.IN_FLIGHT_LATENCY_MS ?? 100,
      maxQueued: v.MAX_QUEUED ?? 2_048,
      queueDeadlineMs: v.QUEUE_DEADLINE_MS ?? 150,
      queueTargetMs: v.QUEUE_TARGET_MS ?? 5,
      queueIntervalMs: v.QUEUE_INTERVAL_MS ?? 100,
      /** argon2 hashes at once (one core fewer than the machine's, at least one) and waiting at most in its line. */
      hashConcurrency: v.HASH_CONCURRENCY ?? defaultHashConcurrency(),
      hashQueue: v.HASH_QUEUE ?? (v.HASH_CONCURRENCY ?? defaultHashConcurrency()) * 4,
      /**
       * Linux: the nice value of libuv's pool threads, where argon2 hashes (security/thread-priority.ts), so the
       * event loop, which answers signed-in users, has the CPU first during a wave of sign-ins; 0 leaves them.
       */
      hashNice: v.HASH_NICE ?? 10,
      /** Open connections per instance (server.maxConnections). */
      maxConnections: v.MAX_CONNECTIONS ?? 4_096,
      /**
       * Connections the kernel holds for the instance before it accepts them (listen's backlog, capped by the
       * kernel's somaxconn). Node's default, 511, drops the SYNs of a surge beyond it, and a dropped SYN is resent
       * after 1, 3, 7 seconds: a wait far longer than a refusal.
       */
      listenBacklog: v.LISTEN_BACKLOG ?? 4_096,
      /**
       * Each client's share (http/connection-share.ts, keyed by clientIpv6Prefix): open connections, and those
       * still waiting for their first request's headers; 0 is off, the default behind TRUST_PROXY. The second is
       * half the first: a school or an office behind one address opens hundreds at once (32 reset most of a burst
       * of 200), while one client's slow headers still hold at most a sixteenth of MAX_CONNECTIONS.
       */
      maxConnectionsPerClient: v.MAX_CONNECTIONS_PER_CLIENT ?? (directClients ? 512 : 0),
      maxPendingHeadersPerClient: v.MAX_PENDING_HEADERS_PER_CLIENT ?? (directClients ? 256 : 0),
      /** A request's headers must arrive within this (slow-header clients are cut); the whole one within requestTimeoutMs. */
      headersTimeoutMs: v.HEADERS_TIMEOUT_MS ?? 10_000,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS ?? 30_000,
      /** On SIGTERM, /readyz answers 503 this long before the server stops accepting (out of the balancer first). */
      drainDelayMs: v.DRAIN_DELAY_MS ?? (dev ? 0 : 2_000),
      /** Per-client limits key an IPv6 client by this network prefix (56 to 64 bits); IPv4 by the whole address. */
      clientIpv6Prefix: v.CLIENT_IPV6_PREFIX ?? 64,
    },
  };
}

export type Config = ReturnType<typeof toConfig>;
export type RuntimeConfig = Config['runtime'];
export type QuotaConfig = Config['quotas'];
export type SsoConfig = Config['sso'];
export type WebauthnConfig = Config['webauthn'];
export type SkolonConfig = NonNullable<SsoConfig['skolon']>;
export type DevIdpConfig = NonNullable<SsoConfig['devIdp']>;

export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    /** The mode NODE_ENV asked for, or null when NODE_ENV itself was refused. */
    readonly mode: Mode | null = null,
    /** What names this process in the log line that reports the failure. */
    readonly instanceId: string = defaultInstanceId(),
  ) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}

const defaultInstanceId = () => `${hostname()}:${process.pid}`;

type Env = Record<string, string | undefined>;

/** Reads and checks every variable; throws a ConfigError that lists every problem found, one line each. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(variables.shape)) {
    const result = schema.safeParse(env[name]);
    if (result.success) parsed[name] = result.data;
    else problems.push(...new Set(result.error.issues.map((issue) => `${name} ${issue.message}`)));
  }
  const config = toConfig(parsed as Variables, problems);
  if (problems.length)
    throw new ConfigError(problems, given(env.NODE_ENV) === parsed.NODE_ENV ? config.mode : null, config.instanceId);
  return config;
}

/**
 * WEBAUTHN_RP_ID (the relying party id: the sign-in app's domain or a parent of it) and WEBAUTHN_ORIGINS (the
 * sign-in app's origins, comma-separated) are required in production, where every origin must be https and on the
 * relying party's domain. Development defaults to `localhost`, the sign-in app's origin and the CORS origins, and
 * (while WEBAUTHN_ORIGINS is unset) to any http://localhost port, where the sign-in app's dev and test servers run.
 */
function webauthnConfig(v: Variables, dev: boolean, signInAppUrl: string | null, problems: string[]) {
  if (!dev && !v.WEBAUTHN_RP_ID)
    problems.push("WEBAUTHN_RP_ID is required in production (the sign-in app's domain, for passkeys)");
  if (!dev && !v.WEBAUTHN_ORIGINS?.length)
    problems.push("WEBAUTHN_ORIGINS is required in production (the sign-in app's origins, for passkeys)");
  const rpId = v.WEBAUTHN_RP_ID ?? 'localhost';
  const defaults = [
    ...(signInAppUrl && URL.canParse(signInAppUrl) ? [new URL(signInAppUrl).origin] : []),
    ...(v.CORS_ORIGINS ?? devCorsOrigins),
  ];
  const origins = [...new Set(v.WEBAUTHN_ORIGINS ?? (dev ? defaults : []))];
  for (const origin of v.WEBAUTHN_ORIGINS ?? []) {
    const url = URL.canParse(origin) ? new URL(origin) : null;
    if (!url || url.origin !== origin) {
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not an origin (scheme://host[:port], no path or trailing slash)`);
      continue;
    }
    const host = url.hostname;
    if (host !== rpId && !host.endsWith(`.${rpId}`))
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not on the relying party's domain ${rpId} (WEBAUTHN_RP_ID)`);
    if (!dev && url.protocol !== 'https:') problems.push(`WEBAUTHN_ORIGINS: ${origin} must be https in production`);
  }
  return {
    rpId,
    rpName: v.WEBAUTHN_RP_NAME ?? 'CoSafe',
    origins,
    /** Development and tests without WEBAUTHN_ORIGINS: any http://localhost:<port> is the sign-in app too. */
    anyLocalhostPort: dev && !v.WEBAUTHN_ORIGINS,
  };
}

/**
 * OUTBOUND_ALLOWED_ADDRESSES: internal addresses/CIDRs tenant-configured URLs may reach outside production
 * (`none` for none); by default loopback. Production refuses it: there every such request goes to public addresses.
 */
function outboundAllowListConfig(value: string | null, dev: boolean, problems: string[]): string[] {
  if (!dev) {
    if (value !== null && value !== 'none')
      problems.push(
        'OUTBOUND_ALLOWED_ADDRESSES is for development and tests only: in production requests to tenant-configured URLs reach public addresses only',
      );
    return [];
  }
  if (value === null) return ['127.0.0.0/8', '::1'];
  if (value === 'none') return [];
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.every((e) => (e.includes('/') ? isCidr(e) : isAddress(e)))) {
    problems.push(
      'OUTBOUND_ALLOWED_ADDRESSES must be a comma-separated list of addresses or CIDRs (for example 127.0.0.0/8,::1), or none',
    );
    return [];
  }
  return entries;
}

/**
 * Whether a database URL names this machine: localhost, a loopback address, or a Unix socket (no host, or a
 * `host=` parameter that is a path). Anything else may be someone's production database.
 */
export function isLocalDatabase(url: string): boolean {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('host');
  if (socket !== null && socket !== '') return socket.startsWith('/');
  let host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  try {
    host = decodeURIComponent(host);
  } catch {
    return false;
  }
  if (host === '' || host.startsWith('/') || host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  return address.range() === 'loopback';
}

/** The names proxy-addr (Express) knows for address ranges. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: a hop count or a comma-separated list of proxy addresses/CIDRs. `true` would take the left-most
 * X-Forwarded-For entry, which the client writes, as its address: every per-address limit would be one header away.
 */
function trustProxyConfig(value: string | null, problems: string[]): number | string[] {
  if (value === null || value === 'false') return 0;
  if (value === 'true') {
    problems.push(
      'TRUST_PROXY=true would trust any X-Forwarded-For a client writes; give the hop count (the number of proxies in front of this service, for example 1) or the trusted proxy addresses/CIDRs (for example 10.0.0.0/8)',
    );
    return 0;
  }
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 10) return hops;
  } else {
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const valid = (entry: string) =>
      proxyRangeNames.has(entry) || (entry.includes('/') ? isCidr(entry) : isAddress(entry));
    if (entries.length > 0 && entries.every(valid)) return entries;
  }
  problems.push(
    'TRUST_PROXY must be a hop count from 0 to 10 or a comma-separated list of proxy addresses or CIDRs (for example 10.0.0.0/8,192.0.2.10)',
  );
  return 0;
}

/** A dotted-quad IPv4 or an IPv6 address (no shorthand IPv4 forms such as 10.1, which readers disagree on). */
function isAddress(entry: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry);
}

function isCidr(entry: string): boolean {
  const [address, bits] = entry.split('/');
  if (!isAddress(address) || !/^[0-9]+$/.test(bits ?? '')) return false;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}
