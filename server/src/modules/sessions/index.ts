// Sessions (sign-in, refresh, second factors): the module's public face.
export { sessionsHandlers, type PasskeyCredential, type PasskeySignIn, type SsoSignIn } from './sessions.handlers';
export { findSessionForUpdate, revokeSessions, updateSession } from './sessions.repository';
export {
  addressAttempt,
  limitAddress,
  loginAttempt,
  loginNotChecked,
  loginRefund,
  loginSucceeded,
  sourceHash,
  startSession,
  startSsoSession,
} from './sessions.service';
export { countWrongSecondFactor } from './one-time-codes';
export { issueTokens, sessionLifetimeMs, type SessionBody } from './tokens';
