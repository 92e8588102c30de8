// Confirmation links: `${publicBaseUrl}/c/<token>`, one per email or SMS dispatch. The token is an HMAC of the
// dispatch id under the region's secret key (256 bits, unguessable, the same on every retry of the dispatch);
// only its SHA-256 is stored, so the database alone cannot forge or reveal a link.
import { keyedHash, sha256Hex } from '../../security/hashing';

export const confirmationTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const confirmationToken = (secretKey: Buffer, dispatchId: number): string => keyedHash(secretKey, `cec-confirmation:${dispatchId}`);

export const confirmationHash = (token: string): string => sha256Hex(token);

export const confirmationUrl = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/c/${token}`;
