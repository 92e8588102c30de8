import type { components } from '../../../generated/core-api';
import { ApiFailure } from './api-failure';
import { call } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';
import type { Session } from './create-session';

/** WebAuthn request options (PublicKeyCredentialRequestOptionsJSON), as a region answers them. */
export type PasskeyRequestOptions = components['schemas']['PasskeyRequestOptions'];
/** WebAuthn creation options (PublicKeyCredentialCreationOptionsJSON) for a new passkey of the signed-in user. */
export type PasskeyCreationOptions = components['schemas']['PasskeyRegistrationOptions'];
/** The authenticator's assertion (AuthenticationResponseJSON). */
export type PasskeyAssertion = components['schemas']['PasskeyAuthenticationResponse'];
/** The authenticator's new credential (RegistrationResponseJSON). */
export type PasskeyAttestation = components['schemas']['PasskeyRegistrationResponse'];
export type Passkey = components['schemas']['Passkey'];

interface SessionRef {
  id: string;
  accessToken: string;
}

const bearer = (session: SessionRef) => ({ Authorization: `Bearer ${session.accessToken}` });

/** Passwordless options of one region: a fresh 32-byte challenge, no credentials named (discoverable passkeys). */
export async function requestAuthenticationOptions(client: CoreApiClient): Promise<PasskeyRequestOptions> {
  const { data } = await call(() =>
    client.POST('/passkeys/authentication-options', { params: { header: VERSION_HEADER } }),
  );
  return data;
}

/** `grantType: passkey`: the session of the account whose passkey signed the region's challenge. */
export async function createPasskeySession(client: CoreApiClient, credential: PasskeyAssertion): Promise<Session> {
  const { data } = await call(() =>
    client.POST('/sessions', {
      // The grant type ahead of the body: the server's door admits it beside other work that checks no password.
      params: { header: { ...VERSION_HEADER, 'cosafe-grant-type': 'passkey' } },
      body: { grantType: 'passkey', credential },
    }),
  );
  return data;
}

/** Creation options for a passkey of the signed-in user (its user handle names the region and the user). */
export async function requestRegistrationOptions(
  client: CoreApiClient,
  session: SessionRef,
): Promise<PasskeyCreationOptions> {
  const { data } = await call(() =>
    client.POST('/passkeys/registration-options', { params: { header: VERSION_HEADER }, headers: bearer(session) }),
  );
  return data;
}

/** Registers the new credential as a passkey of the signed-in user. */
export async function registerPasskey(
  client: CoreApiClient,
  session: SessionRef,
  credential: PasskeyAttestation,
): Promise<Passkey> {
  const { data } = await call(() =>
    client.POST('/passkeys', { params: { header: VERSION_HEADER }, headers: bearer(session), body: { credential } }),
  );
  return data;
}

/** The passkey challenge of a pending session's second factor: options naming the user's passkeys. */
export async function requestPasskeyChallenge(
  client: CoreApiClient,
  session: SessionRef,
): Promise<PasskeyRequestOptions> {
  const { data } = await call(() =>
    client.POST('/sessions/{id}/challenges', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body: { passkey: true },
    }),
  );
  if (!('challenge' in data)) throw new ApiFailure('UNEXPECTED_RESPONSE', 201);
  return data;
}

/** Answers the passkey challenge with the assertion; the verified session comes back with fresh tokens. */
export async function verifyPasskey(
  client: CoreApiClient,
  session: SessionRef,
  credential: PasskeyAssertion,
): Promise<Session> {
  const { data } = await call(() =>
    client.PATCH('/sessions/{id}', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body: { passkey: credential },
    }),
  );
  return data;
}
