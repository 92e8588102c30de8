// The only reader of process.env. Everything is validated at boot and reported together, so a bad deployment
// fails fast with every problem named; production refuses to start without its secrets.
import { resolve } from 'node:path';

export const regions = ['eu-north-1', 'se-sto', 'sa-east-1'] as const;
export type RegionId = (typeof regions)[number];
export type Mode = 'production' | 'development' | 'test';

export interface Config {
  mode: Mode;
  region: RegionId;
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | null;
  /** PGlite data directory; null means in memory (tests). */
  dataDir: string | null;
  signInAppUrl: string;
  corsOrigins: string[];
  redirectAllowList: string[];
  bodyLimit: string;
  logLevel: string;
  trustProxy: boolean;
  /** Secrets given by the environment; development generates missing ones and keeps them in dataDir. */
  secrets: { signingKeys: string | null; secretKey: string | null };
  notify: {
    transport: 'outbox' | 'live';
    smtpUrl: string | null;
    emailFrom: string;
    smsApiUrl: string | null;
    smsApiToken: string | null;
    smsSender: string;
    voiceApiUrl: string | null;
    voiceApiToken: string | null;
    pushApiUrl: string | null;
    pushApiToken: string | null;
  };
  accessTokenTtlSeconds: number;
  /** Check every response against the contract (development and tests; off in production for speed). */
  validateResponses: boolean;
  /** Development only: extra demo users bench-<n>@demo.test for load runs. */
  benchUsers: number;
  /** Single sign-on (redirect URIs are checked against redirectAllowList). */
  sso: SsoConfig;
}

export interface SkolonConfig {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userInfoEndpoint: string;
  clientId: string;
  clientSecret: string;
}

export interface SsoConfig {
  /** Outside production identity providers may be reached over plain http (local test peers). */
  allowInsecureHttp: boolean;
  /** Optional SAML service provider key pair (PEM): signs AuthnRequests and is published in the metadata. */
  samlSpPrivateKey: string | null;
  samlSpCertificate: string | null;
  /** Skolon is one OAuth client for the whole region; null when not configured. */
  skolon: SkolonConfig | null;
  /**
   * Development only (never read in production): the development identity provider (scripts/dev-idp.mjs) at
   * DEV_SSO_ISSUER, which the demo seed binds to the domain sso.demo.test; client id and secret are shared with
   * it through DEV_SSO_CLIENT_ID and DEV_SSO_CLIENT_SECRET (both have the same defaults there). Null when unset.
   */
  devIdp: DevIdpConfig | null;
}

export interface DevIdpConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Defaults shared with scripts/dev-idp.mjs. */
export const devIdpDefaults = { clientId: 'sign-in-dev', clientSecret: 'dev-sso-client-secret-not-for-production' } as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : null;
  };
  const url = (name: string, fallback: string | null): string | null => {
    const v = str(name) ?? fallback;
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!/^(https?|postgres|postgresql|smtps?):$/.test(u.protocol)) problems.push(`${name} has an unsupported scheme: ${u.protocol}`);
      return v.replace(/\/$/, '');
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const v = str(name);
    if (v === null) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const list = (name: string, fallback: string[]) => {
    const v = str(name);
    return v === null ? fallback : v.split(',').map((s) => s.trim()).filter(Boolean);
  };

  const rawMode = str('NODE_ENV') ?? 'development';
  const mode: Mode = rawMode === 'production' || rawMode === 'test' ? rawMode : 'development';
  const regionValue = str('REGION') ?? 'eu-north-1';
  if (!(regions as readonly string[]).includes(regionValue)) problems.push(`REGION must be one of ${regions.join(', ')}`);
  const region = regionValue as RegionId;
  const port = int('PORT', 4000, 0, 65535);
  const host = str('HOST') ?? (mode === 'production' ? '0.0.0.0' : '127.0.0.1');
  const dev = mode !== 'production';

  const publicBaseUrl = url('PUBLIC_BASE_URL', dev ? `http://localhost:${port}` : null);
  if (!publicBaseUrl) problems.push('PUBLIC_BASE_URL is required in production (the URL clients use to reach this region)');
  const databaseUrl = url('DATABASE_URL', null);
  const dataDirValue = str('DATA_DIR');
  const dataDir = dataDirValue === ':memory:' ? null : resolve(dataDirValue ?? `data/${region}`);
  const signInAppUrl = url('SIGN_IN_APP_URL', dev ? 'http://localhost:5173' : null);
  if (!signInAppUrl) problems.push('SIGN_IN_APP_URL is required in production (links in emails point to it)');

  const transportValue = str('NOTIFY_TRANSPORT') ?? (dev ? 'outbox' : 'live');
  if (transportValue !== 'outbox' && transportValue !== 'live') problems.push('NOTIFY_TRANSPORT must be outbox or live');
  if (!dev && transportValue === 'outbox') problems.push('NOTIFY_TRANSPORT=outbox is for development only');
  const notify: Config['notify'] = {
    transport: transportValue === 'live' ? 'live' : 'outbox',
    smtpUrl: url('SMTP_URL', null),
    emailFrom: str('EMAIL_FROM') ?? 'no-reply@localhost',
    smsApiUrl: url('SMS_API_URL', null),
    smsApiToken: str('SMS_API_TOKEN'),
    smsSender: str('SMS_SENDER') ?? 'Alarm',
    voiceApiUrl: url('VOICE_API_URL', null),
    voiceApiToken: str('VOICE_API_TOKEN'),
    pushApiUrl: url('PUSH_API_URL', null),
    pushApiToken: str('PUSH_API_TOKEN'),
  };
  if (notify.transport === 'live') {
    if (!notify.smtpUrl) problems.push('SMTP_URL is required when NOTIFY_TRANSPORT=live');
    if (!notify.smsApiUrl) problems.push('SMS_API_URL is required when NOTIFY_TRANSPORT=live');
  }

  const secrets = { signingKeys: str('ACCESS_TOKEN_SIGNING_KEYS'), secretKey: str('SECRET_KEY') };
  if (!dev) {
    if (!secrets.signingKeys) problems.push('ACCESS_TOKEN_SIGNING_KEYS is required in production (JSON array of private JWKs, newest first)');
    if (!secrets.secretKey) problems.push('SECRET_KEY is required in production (at least 32 random bytes, base64)');
    if (!databaseUrl) problems.push('DATABASE_URL is required in production');
  }
  if (secrets.secretKey && Buffer.from(secrets.secretKey, 'base64').length < 32) problems.push('SECRET_KEY must decode to at least 32 bytes (base64)');

  const config: Config = {
    mode,
    region,
    port,
    host,
    publicBaseUrl: publicBaseUrl ?? '',
    databaseUrl,
    dataDir,
    signInAppUrl: signInAppUrl ?? '',
    corsOrigins: list('CORS_ORIGINS', dev ? ['http://localhost:5173', 'http://127.0.0.1:5173'] : []),
    redirectAllowList: list('REDIRECT_ALLOW_LIST', dev ? ['http://localhost:5173/'] : []),
    bodyLimit: str('BODY_LIMIT') ?? '100kb',
    logLevel: str('LOG_LEVEL') ?? (mode === 'test' ? 'silent' : 'info'),
    trustProxy: str('TRUST_PROXY') === 'true',
    secrets,
    notify,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 900, 30, 3600),
    benchUsers: dev ? int('BENCH_USERS', 0, 0, 100_000) : 0,
    validateResponses: (str('VALIDATE_RESPONSES') ?? (dev ? 'true' : 'false')) === 'true',
    sso: ssoConfig(env, str, url, problems, dev),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** SSO settings: Skolon is all or nothing; the SAML key pair comes as a pair. */
function ssoConfig(env: Env, str: (n: string) => string | null, url: (n: string, f: string | null) => string | null, problems: string[], dev: boolean): SsoConfig {
  const pem = (name: string) => str(name)?.replace(/\\n/g, '\n') ?? null;
  const samlSpPrivateKey = pem('SAML_SP_PRIVATE_KEY');
  const samlSpCertificate = pem('SAML_SP_CERTIFICATE');
  if (Boolean(samlSpPrivateKey) !== Boolean(samlSpCertificate)) problems.push('SAML_SP_PRIVATE_KEY and SAML_SP_CERTIFICATE go together');
  const skolonNames = ['SKOLON_ISSUER', 'SKOLON_AUTHORIZATION_URL', 'SKOLON_TOKEN_URL', 'SKOLON_JWKS_URL', 'SKOLON_USERINFO_URL', 'SKOLON_CLIENT_ID', 'SKOLON_CLIENT_SECRET'];
  const given = skolonNames.filter((n) => env[n]?.trim());
  let skolon: SkolonConfig | null = null;
  if (given.length > 0 && given.length < skolonNames.length) {
    problems.push(`Skolon needs all of ${skolonNames.join(', ')} (missing: ${skolonNames.filter((n) => !given.includes(n)).join(', ')})`);
  } else if (given.length) {
    skolon = {
      issuer: url('SKOLON_ISSUER', null) ?? '',
      authorizationEndpoint: url('SKOLON_AUTHORIZATION_URL', null) ?? '',
      tokenEndpoint: url('SKOLON_TOKEN_URL', null) ?? '',
      jwksUri: url('SKOLON_JWKS_URL', null) ?? '',
      userInfoEndpoint: url('SKOLON_USERINFO_URL', null) ?? '',
      clientId: str('SKOLON_CLIENT_ID')!,
      clientSecret: str('SKOLON_CLIENT_SECRET')!,
    };
  }
  const devIssuer = dev ? url('DEV_SSO_ISSUER', null) : null;
  const devIdp = devIssuer
    ? { issuer: devIssuer, clientId: str('DEV_SSO_CLIENT_ID') ?? devIdpDefaults.clientId, clientSecret: str('DEV_SSO_CLIENT_SECRET') ?? devIdpDefaults.clientSecret }
    : null;
  return { allowInsecureHttp: dev, samlSpPrivateKey, samlSpCertificate, skolon, devIdp };
}
