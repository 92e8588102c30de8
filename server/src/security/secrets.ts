import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Config, SigningJwk } from '../config';

export interface Secrets {
  /** Private signing keys, newest (active) first; older ones still verify tokens during a rotation. */
  signingKeys: SigningJwk[];
  /** Key for HMACs of stored codes and tokens and for encrypting secrets at rest. */
  secretKey: Buffer;
}

/** A new private P-256 signing key as a JWK (node:crypto exports it: `kty`, `crv`, `x`, `y`, `d`), with its kid. */
export async function generateSigningKey(kid: string): Promise<SigningJwk> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
}

/**
 * Production takes every secret from the environment. Development generates what is missing once and keeps it
 * in the region's data directory (so tokens survive a restart); in-memory runs (tests) generate fresh ones.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  const fromEnv = {
    signingKeys: config.secrets.signingKeys,
    secretKey: config.secrets.secretKey ? Buffer.from(config.secrets.secretKey, 'base64') : null,
  };
  if (fromEnv.signingKeys && fromEnv.secretKey)
    return { signingKeys: fromEnv.signingKeys, secretKey: fromEnv.secretKey };
  if (config.mode === 'production') throw new Error('Production needs ACCESS_TOKEN_SIGNING_KEYS and SECRET_KEY');

  const file = config.dataDir ? join(config.dataDir, 'dev-secrets.json') : null;
  let stored: { signingKeys?: SigningJwk[]; secretKey?: string } = {};
  if (file && existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
  const signingKeys = fromEnv.signingKeys ?? stored.signingKeys ?? [await generateSigningKey(`${config.region}-dev-1`)];
  const secretKey = fromEnv.secretKey ?? (stored.secretKey ? Buffer.from(stored.secretKey, 'base64') : randomBytes(32));
  if (file && (!stored.signingKeys || !stored.secretKey)) {
    mkdirSync(config.dataDir!, { recursive: true });
    writeFileSync(file, JSON.stringify({ signingKeys, secretKey: secretKey.toString('base64') }, null, 2), {
      mode: 0o600,
    });
    chmodSync(file, 0o600);
  }
  return { signingKeys, secretKey };
}
