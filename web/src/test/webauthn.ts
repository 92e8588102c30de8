import { CHALLENGE_BYTES, base64UrlToBytes, bytesToBase64Url } from '../login/passkey-challenge';
import type { Reply } from './fake-api';

/**
 * jsdom has no WebAuthn. These give the window a `PublicKeyCredential` that answers the capability questions the
 * app asks; the ceremonies themselves are @simplewebauthn/browser's, which each test file mocks.
 */
export function givenWebAuthn({ platform = true, autofill = false } = {}): void {
  class FakePublicKeyCredential {
    static isUserVerifyingPlatformAuthenticatorAvailable = () => Promise.resolve(platform);
    static isConditionalMediationAvailable = () => Promise.resolve(autofill);
  }
  Object.defineProperty(window, 'PublicKeyCredential', {
    value: FakePublicKeyCredential,
    configurable: true,
    writable: true,
  });
}

export function withoutWebAuthn(): void {
  delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
}

/** A region's 32-byte challenge, every byte `fill` (so its segment in the joined challenge is recognisable). */
export const challengeOf = (fill: number) => bytesToBase64Url(new Uint8Array(CHALLENGE_BYTES).fill(fill));

/** The fills of the joined challenge's 32-byte segments, in order. */
export function segmentsOf(challenge: string): number[] {
  const bytes = base64UrlToBytes(challenge) ?? new Uint8Array();
  return Array.from({ length: bytes.length / CHALLENGE_BYTES }, (_, index) => bytes[index * CHALLENGE_BYTES]);
}

/** A region's passwordless options. */
export function authenticationOptions(fill: number, extra: Record<string, unknown> = {}): Reply {
  return {
    status: 200,
    body: { challenge: challengeOf(fill), timeout: 300_000, rpId: 'localhost', userVerification: 'required', ...extra },
  };
}

/** base64url of the UTF-8 user handle `<region>:<userId>`. */
export const userHandleOf = (text: string) => bytesToBase64Url(new TextEncoder().encode(text));

/** An assertion as @simplewebauthn/browser returns it. */
export function assertion(userHandle?: string) {
  return {
    id: 'Y3JlZGVudGlhbC0x',
    rawId: 'Y3JlZGVudGlhbC0x',
    type: 'public-key' as const,
    response: {
      authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
      signature: 'MEUCIQDsig',
      ...(userHandle === undefined ? {} : { userHandle }),
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform' as const,
  };
}

/** A new credential as @simplewebauthn/browser returns it. */
export function attestation() {
  return {
    id: 'bmV3LWNyZWRlbnRpYWw',
    rawId: 'bmV3LWNyZWRlbnRpYWw',
    type: 'public-key' as const,
    response: {
      attestationObject: 'o2NmbXRkbm9uZQ',
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
      transports: ['internal'],
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform' as const,
  };
}

/** A DOMException as the browser throws it from a ceremony. */
export const domError = (name: string) => new DOMException('The operation either timed out or was not allowed.', name);

/**
 * For a wait that includes loading the passkey flow on demand (its first import in a test file is transformed
 * then, which takes seconds on a busy machine).
 */
export const FLOW_LOADED = { timeout: 10_000 };
