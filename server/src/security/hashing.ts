import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** The identity hash of the spec: SHA-256 hex of the lowercased email. */
export const emailHash = (email: string): string => sha256Hex(email.trim().toLowerCase());

/** Opaque secrets (refresh tokens, reset tokens, api keys): base64url of `bytes` random bytes. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A uniformly random numeric one-time code. */
export const randomDigits = (length: number): string => Array.from({ length }, () => randomInt(0, 10)).join('');

/** Keyed hash used to store secrets we only need to compare (refresh tokens, codes, keys). */
export const keyedHash = (key: Buffer, value: string): string =>
  createHmac('sha256', key).update(value).digest('base64url');

export const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
