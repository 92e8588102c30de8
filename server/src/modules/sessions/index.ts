// Sessions (all of sign-in: the password session and its probe, one-time codes, lockouts, refresh, second
// factors): the module's public face. It offers what a caller means to do, not the repository's statements.
export type { SessionsDeps } from './sessions.deps';
export { sessionsHandlers, type PasskeyCredential, type PasskeySignIn, type SsoSignIn } from './sessions.handlers';
export {
  addressAttempt,
  addressLockedOut,
  clearSignInFailures,
  guard as guardSignIn,
  lockoutIdentityOf,
  limitAddress,
  loginAttempt,
  passkeyAttempt,
  passkeySourceFamiliar,
  succeeded,
} from './lockouts';
export {
  attemptNotChecked,
  bindSsoSession,
  forgetCredentialsOf,
  holdSession,
  removePasskeysOnReset,
  revokeSessionsOf,
  secondFactorSucceeded,
  startSession,
  startSsoSession,
} from './sessions.service';
export { probeHash } from './probe';
export { countWrongSecondFactor } from './one-time-codes';
export { factorsAfterAnswer, settleAndIssueTokens, type SessionBody } from './tokens';
export {
  noteReauthentication,
  ownSessionToReauthenticate,
  reauthenticateWithPassword,
  reauthenticationWindowMs,
  requireRecentProof,
  type Reauthenticated,
} from './reauthentication';
export { signInFailed, signInRefused, signInSucceeded, type SignInEvent } from './sign-in-events';
