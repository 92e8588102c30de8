// Confirmation links: `${publicBaseUrl}/c/<token>`, one per email or SMS dispatch. The token is an HMAC of the
// dispatch id under the region's secret key (256 bits, unguessable, the same on every retry of the dispatch);
// only its SHA-256 is stored, so the database alone cannot forge or reveal a link.
import { keyedHash, sha256Hex } from '../../security/hashing';

export const confirmationTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Derived from the dispatch's id and its random key_nonce, so a dispatch that reuses an old id (a restored backup) never gets an old link. */
export const confirmationToken = (secretKey: Buffer, dispatch: { id: number; key_nonce: string }): string =>
  keyedHash(secretKey, `cec-confirmation:${dispatch.id}:${dispatch.key_nonce}`);

export const confirmationHash = (token: string): string => sha256Hex(token);

export const confirmationUrl = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/c/${token}`;
