/*
 * What this browser and device can do with passkeys, and what the user said about them on this device. Small on
 * purpose: the login screen needs it before anything is typed; @simplewebauthn/browser loads only when a passkey
 * ceremony starts.
 */

/** localStorage: the user chose "Don't ask again on this device" on the passkey offer. */
export const OFFER_DECLINED_KEY = 'passkeys.offerDeclined';
/** localStorage: a passkey was added on this device; the offer is not made again here. */
export const ADDED_HERE_KEY = 'passkeys.addedOnThisDevice';

type PublicKeyCredentialStatics = {
  isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>;
  isConditionalMediationAvailable?: () => Promise<boolean>;
};

function publicKeyCredential(): PublicKeyCredentialStatics | null {
  const value = (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  return typeof value === 'function' ? (value as PublicKeyCredentialStatics) : null;
}

/** The browser has WebAuthn at all (a secure page in a browser of the last years). */
export const browserHasPasskeys = (): boolean => publicKeyCredential() !== null;

async function asks(question: (() => Promise<boolean>) | undefined): Promise<boolean> {
  try {
    return question ? (await question()) === true : false;
  } catch {
    return false;
  }
}

/** The browser offers passkeys in the email field's autofill (conditional mediation). */
export function autofillAvailable(): Promise<boolean> {
  const statics = publicKeyCredential();
  return asks(statics?.isConditionalMediationAvailable?.bind(statics));
}

/** The device itself can hold a passkey and verify its user (fingerprint, face, screen lock). */
export function platformAuthenticatorAvailable(): Promise<boolean> {
  const statics = publicKeyCredential();
  return asks(statics?.isUserVerifyingPlatformAuthenticatorAvailable?.bind(statics));
}

function readLocal(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeLocal(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage refused (privacy mode): the choice lasts for this page only, and the offer may come again.
  }
}

/** Whether to offer "Log in faster next time with a passkey" after a sign-in on this device. */
export async function shouldOfferPasskey(): Promise<boolean> {
  if (readLocal(OFFER_DECLINED_KEY) || readLocal(ADDED_HERE_KEY)) return false;
  return platformAuthenticatorAvailable();
}

export const declineOfferOnThisDevice = () => writeLocal(OFFER_DECLINED_KEY, new Date().toISOString());
export const rememberPasskeyAddedHere = () => writeLocal(ADDED_HERE_KEY, new Date().toISOString());
