import { isRegionCode, type RegionCode } from '../config/regions';

/**
 * Passkeys and regions (docs/decisions.md): one sign-in app serves every region, and a passkey lives in the region
 * that holds the account. The app asks every region for a challenge and signs all of them at once; the passkey's
 * user handle then names the region to send the assertion to.
 */

/** Every region's passwordless challenge is exactly this many random bytes. */
export const CHALLENGE_BYTES = 32;

/** The longest user handle WebAuthn allows, in bytes. */
const MAX_USER_HANDLE_BYTES = 64;

/** Bytes of a base64url text (padding optional), or null when it is not base64url. */
export function base64UrlToBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  const base64 = bare.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (bare.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** base64url without padding, as WebAuthn's JSON forms write binary values. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A region's challenge as its bytes, or null unless it is base64url of exactly CHALLENGE_BYTES bytes. */
export function challengeBytes(challenge: string): Uint8Array | null {
  const bytes = base64UrlToBytes(challenge);
  return bytes?.length === CHALLENGE_BYTES ? bytes : null;
}

/**
 * The one WebAuthn challenge for several regions: their decoded challenges one after another, in the order given
 * (the app's region order), as base64url. A region verifying the assertion finds its own 32-byte segment in it.
 * Throws when a challenge is not base64url of exactly 32 bytes (such a region is left out before this is called).
 */
export function concatChallenges(challenges: readonly string[]): string {
  if (challenges.length === 0) throw new Error('No challenge to concatenate');
  const joined = new Uint8Array(challenges.length * CHALLENGE_BYTES);
  challenges.forEach((challenge, index) => {
    const bytes = challengeBytes(challenge);
    if (!bytes) throw new Error(`Challenge ${index + 1} is not ${CHALLENGE_BYTES} bytes of base64url`);
    joined.set(bytes, index * CHALLENGE_BYTES);
  });
  return bytesToBase64Url(joined);
}

/** Who a passkey belongs to, read from its user handle. */
export interface UserHandle {
  region: RegionCode;
  userId: string;
}

/**
 * The user handle a passkey was registered with is the UTF-8 bytes of `<regionCode>:<userId>`; the assertion
 * returns it base64url-encoded. Null when it is missing or not of that form (a passkey this app did not create,
 * or a region it does not know): the app cannot tell where to send such an assertion.
 */
export function parseUserHandle(userHandle: string | null | undefined): UserHandle | null {
  if (!userHandle) return null;
  const bytes = base64UrlToBytes(userHandle);
  if (!bytes || bytes.length === 0 || bytes.length > MAX_USER_HANDLE_BYTES) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const region = text.slice(0, colon);
  const userId = text.slice(colon + 1);
  if (!isRegionCode(region) || !/^[\x21-\x7e]+$/.test(userId)) return null;
  return { region, userId };
}
