/*
 * The passkey ceremonies of the account page, loaded on demand with @simplewebauthn/browser: proving a passkey
 * again (re-authentication) and adding one.
 */
import { type AuthenticationResponseJSON, startAuthentication } from '@simplewebauthn/browser';
import { reauthenticate, type SessionRef } from '../../api/account';
import type { CoreApiClient } from '../../api/client';
import { type PasskeyAssertion, requestAuthenticationOptions } from '../../api/passkeys';
import { ceremony } from '../../login/passkey-failure';
import { addPasskey } from '../../login/passkey-flow';
import type { AccountSession } from '../../login/account-session';

// The library declares its JSON as interfaces, which do not stand for the contract's open objects without a copy.
const asAssertion = (credential: AuthenticationResponseJSON): PasskeyAssertion => ({
  ...credential,
  response: { ...credential.response },
  clientExtensionResults: { ...credential.clientExtensionResults },
});

/** Proves one of the account's passkeys on the session (any of hers: the region checks it is the session user's). */
export async function reauthenticateWithPasskey(client: CoreApiClient, session: SessionRef): Promise<void> {
  const optionsJSON = await requestAuthenticationOptions(client);
  const credential = await ceremony('get', optionsJSON.timeout, () => startAuthentication({ optionsJSON }));
  await reauthenticate(client, session, { passkey: asAssertion(credential) });
}

/** Adds a passkey on this device to the account, as the offer after a sign-in does. */
export function addPasskeyHere(account: AccountSession, session: SessionRef): Promise<void> {
  return addPasskey({ region: account.region, baseUrl: account.baseUrl, session });
}
