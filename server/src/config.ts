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
}

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
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
