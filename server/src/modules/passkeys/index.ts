// Passkeys (WebAuthn): enrolment of the signed-in user's passkeys, and the passkey sign-in the sessions module is
// handed (alone, or as a second factor). The module's public face.
export type { PasskeysDeps } from './passkeys.deps';
export { passkeysHandlers } from './passkeys.handlers';
export { passkeySignIn } from './passkey-sign-in';
