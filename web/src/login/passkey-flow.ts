/*
 * The passkey ceremonies of the sign-in app, loaded on demand (with @simplewebauthn/browser) when the first one
 * starts: passwordless sign-in across regions, the passkey as a second factor, and adding a passkey.
 */
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  WebAuthnAbortService,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { clientFor } from '../api/client';
import {
  type PasskeyAssertion,
  type PasskeyAttestation,
  type PasskeyRequestOptions,
  createPasskeySession,
  registerPasskey,
  requestPasskeyChallenge,
  requestRegistrationOptions,
  verifyPasskey,
} from '../api/passkeys';
import type { RegionTarget } from '../config/config';
import { parseUserHandle } from './passkey-challenge';
import { rememberPasskeyAddedHere } from './passkey-device';
import { PasskeyFailure, ceremony } from './passkey-failure';
import { type JoinedOptions, joinedAuthenticationOptions } from './passkey-options';
import type { PasskeyOffer } from './passkey-offer';
import { type NextStep, completeSignIn, continueWithSession } from './sign-in';
import type { PendingSession } from './sign-in-storage';

export { joinedAuthenticationOptions } from './passkey-options';

/*
 * The library's JSON types and the contract's describe the same WebAuthn JSON; the library declares its objects as
 * interfaces, which TypeScript does not let stand for the contract's open objects without a copy.
 */
const asAssertion = (credential: AuthenticationResponseJSON): PasskeyAssertion => ({
  ...credential,
  response: { ...credential.response },
  clientExtensionResults: { ...credential.clientExtensionResults },
});
const asAttestation = (credential: RegistrationResponseJSON): PasskeyAttestation => ({
  ...credential,
  response: { ...credential.response },
  clientExtensionResults: { ...credential.clientExtensionResults },
});

export interface PasskeySignInInput {
  targets: readonly RegionTarget[];
  clientType: string | null;
  allowList: readonly string[];
}

/**
 * Passwordless sign-in: one ceremony over every region's challenge, then the assertion goes to the region its
 * user handle names, which creates the session; the sign-in continues as the other grants do.
 */
export async function signInWithPasskey({ targets, clientType, allowList }: PasskeySignInInput): Promise<NextStep> {
  return signInWithJoinedOptions(await joinedAuthenticationOptions(targets, clientType), allowList, false);
}

/**
 * The ceremony and the session of a passwordless sign-in whose options are at hand. With `autofill`, the passkeys
 * are offered in the email field's autofill (conditional mediation), and the promise waits until one is picked.
 */
export async function signInWithJoinedOptions(
  { optionsJSON, regions, failures }: JoinedOptions,
  allowList: readonly string[],
  autofill: boolean,
): Promise<NextStep> {
  const credential = await ceremony('get', autofill ? undefined : optionsJSON.timeout, () =>
    startAuthentication({ optionsJSON, useBrowserAutofill: autofill }),
  );
  const handle = parseUserHandle(credential.response.userHandle);
  const target = handle && regions.find((region) => region.region === handle.region);
  if (!target) {
    // A region that gave no challenge cannot accept this assertion: say what it answered, if it is one of ours.
    const failure = handle && failures.get(handle.region);
    throw failure ?? new PasskeyFailure('notRecognised');
  }
  const session = await createPasskeySession(clientFor(target.baseUrl), asAssertion(credential));
  return continueWithSession(session, target, allowList);
}

/** The options of the passkey second factor of a pending session (an error when the user has no passkey). */
export function passkeySecondFactorOptions(pending: PendingSession): Promise<PasskeyRequestOptions> {
  return requestPasskeyChallenge(clientFor(pending.baseUrl), pending.session);
}

/** Proves the pending session's second factor with one of the user's passkeys; the sign-in then completes. */
export async function completeWithPasskey(
  pending: PendingSession,
  optionsJSON: PasskeyRequestOptions,
  allowList: readonly string[],
): Promise<NextStep> {
  const credential = await ceremony('get', optionsJSON.timeout, () => startAuthentication({ optionsJSON }));
  const session = await verifyPasskey(clientFor(pending.baseUrl), pending.session, asAssertion(credential));
  return completeSignIn(session, allowList, { region: pending.region, baseUrl: pending.baseUrl });
}

/** Adds a passkey on this device to the account of the session just signed in. */
export async function addPasskey(offer: PasskeyOffer): Promise<void> {
  const client = clientFor(offer.baseUrl);
  const optionsJSON = await requestRegistrationOptions(client, offer.session);
  const credential = await ceremony('create', optionsJSON.timeout, () => startRegistration({ optionsJSON }));
  await registerPasskey(client, offer.session, asAttestation(credential));
  rememberPasskeyAddedHere();
}

/** Stops a ceremony under way (the autofill's, when the page moves on or its challenges are about to expire). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}
