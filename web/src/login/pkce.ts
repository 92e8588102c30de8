/* PKCE (RFC 7636) and the OAuth state, from the browser's Web Crypto: nothing here is ever sent by Math.random. */

/** RFC 7636 section 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `byteCount` random bytes as base64url without padding (32 bytes → 43 characters). */
export function randomUrlSafe(byteCount: number): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(byteCount)));
}

export function isCodeVerifier(value: unknown): value is string {
  return typeof value === 'string' && VERIFIER_PATTERN.test(value);
}

/** A fresh code verifier: 48 random bytes, 64 characters (256 bits would need only 43). */
export function createCodeVerifier(): string {
  return randomUrlSafe(48);
}

/** The S256 code challenge: BASE64URL(SHA-256(ASCII(verifier))), without padding. */
export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!isCodeVerifier(verifier)) throw new Error('A PKCE code verifier has 43 to 128 unreserved characters');
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The OAuth state that ties the identity provider's answer to this tab's sign-in (256 bits). */
export function createState(): string {
  return randomUrlSafe(32);
}
