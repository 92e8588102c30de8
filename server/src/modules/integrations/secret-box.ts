// Encryption at rest for secrets we must be able to use again (the OIDC client secret): AES-256-GCM under a key
// derived from the region's secret key with HKDF, one derived key per purpose, and the owner (tenant) bound in as
// associated data so a ciphertext copied to another tenant's row does not decrypt.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 'v1';

function keyFor(secretKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `core-api:${purpose}`, 32));
}

export function encryptSecret(secretKey: Buffer, purpose: string, owner: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey, purpose), iv);
  cipher.setAAD(Buffer.from(owner));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    version,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** Throws when the value was not made by encryptSecret with the same key, purpose and owner. */
export function decryptSecret(secretKey: Buffer, purpose: string, owner: string, sealed: string): string {
  const [v, iv, tag, ciphertext] = sealed.split('.');
  if (v !== version || !iv || !tag || ciphertext === undefined) throw new Error('Unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secretKey, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(owner));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
