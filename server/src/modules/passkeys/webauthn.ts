// The WebAuthn ceremonies, through @simplewebauthn/server: the relying party and origins from configuration,
// user verification required, challenges of 32 random bytes. Nothing here touches the database; the service
// files decide which challenge is live and what a verified answer changes.
import { randomBytes } from 'node:crypto';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import type { WebauthnConfig } from '../../config';
import type { Logger } from '../../logger';
import type { PasskeyCredential } from '../sessions';

/** A challenge lives 5 minutes, and the browser is told to wait as long. */
export const challengeLifetimeMs = 5 * 60_000;
export const challengeBytes = 32;
/** EdDSA, ES256, RS256, in that order of preference. */
export const algorithms = [-8, -7, -257];
export const maxPasskeysPerUser = 10;
/** How long the removal link in the notice of an added passkey works (once). */
export const removalLinkLifetimeMs = 7 * 86_400_000;
/** The most regions whose challenges one passwordless sign-in may join. */
const maxJoinedChallenges = 16;

export const newChallenge = () => randomBytes(challengeBytes).toString('base64url');

/** The user handle given at registration: `<region>:<userId>` in UTF-8, which every assertion returns. */
export const userHandle = (region: string, userId: number) => new TextEncoder().encode(`${region}:${userId}`);

/** The user id a returned user handle (base64url) names in `region`; null for another region or no handle. */
export function userOfHandle(handle: string | undefined | null, region: string): number | null {
  if (!handle) return null;
  const match = /^([a-z0-9-]{1,40}):([1-9][0-9]{0,15})$/.exec(Buffer.from(handle, 'base64url').toString('utf8'));
  if (!match || match[1] !== region) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? id : null;
}

export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
}

/** The client data of an answer, or null when it is not the JSON WebAuthn says. */
export function clientDataOf(response: { response: { clientDataJSON: string } }): ClientData | null {
  try {
    const data = decodeClientDataJSON(response.response.clientDataJSON) as Partial<ClientData>;
    if (typeof data.challenge !== 'string' || typeof data.origin !== 'string' || typeof data.type !== 'string')
      return null;
    return { type: data.type, challenge: data.challenge, origin: data.origin };
  } catch {
    return null;
  }
}

/**
 * The 32-byte parts of a (possibly joined) challenge, each in base64url; null unless it is canonical base64url
 * of a whole number of 32-byte parts (at most one per region).
 */
export function challengeParts(challenge: string): string[] | null {
  if (!/^[A-Za-z0-9_-]+$/.test(challenge)) return null;
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length === 0 || bytes.length % challengeBytes !== 0 || bytes.length > challengeBytes * maxJoinedChallenges)
    return null;
  if (bytes.toString('base64url') !== challenge) return null;
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += challengeBytes)
    parts.push(bytes.subarray(at, at + challengeBytes).toString('base64url'));
  return parts;
}

/** Whether an origin is one of the sign-in app's (development: also any http://localhost port). */
export function allowedOrigin(config: WebauthnConfig, origin: string): boolean {
  if (config.origins.includes(origin)) return true;
  return config.anyLocalhostPort && /^http:\/\/localhost(:[0-9]{1,5})?$/.test(origin);
}

export interface VerifiedRegistration {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  aaguid: string;
  deviceType: string;
  backedUp: boolean;
}

/**
 * The registration answer checked against `expectedChallenge` (the caller's live challenge): origin, relying
 * party, user presence and verification, algorithm and attestation ('none' or a valid statement). Null when any
 * check fails (the reason is logged).
 */
export async function verifyRegistration(
  config: WebauthnConfig,
  logger: Logger,
  credential: RegistrationResponseJSON,
  expectedChallenge: string,
): Promise<VerifiedRegistration | null> {
  const client = clientDataOf(credential);
  if (!client || !allowedOrigin(config, client.origin)) {
    logger.info({ origin: client?.origin }, 'passkey registration refused: origin not allowed');
    return null;
  }
  try {
    const result = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: (challenge: string) => challenge === expectedChallenge,
      expectedOrigin: client.origin,
      expectedRPID: config.rpId,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: algorithms,
    });
    if (!result.verified || !result.registrationInfo) return null;
    const info = result.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: credential.response.transports ?? [],
      aaguid: info.aaguid,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  } catch (error) {
    logger.info({ reason: error instanceof Error ? error.message : String(error) }, 'passkey registration refused');
    return null;
  }
}

export interface StoredPasskey {
  credential_id: string;
  public_key: Uint8Array;
  transports: string[];
}

export interface VerifiedAssertion {
  counter: number;
  backedUp: boolean;
}

/**
 * The assertion checked against a stored passkey and `expectedChallenge`: origin, relying party, user presence
 * and verification, and the signature. The counter is the caller's to compare (only a signed counter may mark a
 * passkey suspicious, so the library is given none to compare with). Null when any check fails (reason logged).
 */
export async function verifyAssertion(
  config: WebauthnConfig,
  logger: Logger,
  credential: PasskeyCredential,
  passkey: StoredPasskey,
  expectedChallenge: (challenge: string) => boolean,
): Promise<VerifiedAssertion | null> {
  const client = clientDataOf(credential);
  if (!client || !allowedOrigin(config, client.origin)) {
    logger.info({ origin: client?.origin }, 'passkey assertion refused: origin not allowed');
    return null;
  }
  try {
    const result = await verifyAuthenticationResponse({
      // The contract's form of the assertion (checked by the validator) is the library's AuthenticationResponseJSON.
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: client.origin,
      expectedRPID: config.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: 0,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
    });
    if (!result.verified) return null;
    return { counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp };
  } catch (error) {
    logger.info({ reason: error instanceof Error ? error.message : String(error) }, 'passkey assertion refused');
    return null;
  }
}

/** A signature counter that did not go up, where the authenticator keeps one (WebAuthn section 6.1.1). */
export const counterWentBack = (stored: number, presented: number) =>
  (stored > 0 || presented > 0) && presented <= stored;
