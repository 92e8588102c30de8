// Sessions (sign-in, refresh, second factors): the module's public face.
export { sessionsHandlers, type SsoSignIn } from './sessions.handlers';
export { findSessionForUpdate, revokeSessions, updateSession } from './sessions.repository';
export { limitAddress, loginAttempt, loginRefund, startSsoSession } from './sessions.service';
export { issueTokens, sessionLifetimeMs, type SessionBody } from './tokens';
