// Passwords (set, reset and their links): the module's public face.
export type { PasswordsDeps } from './passwords.deps';
export { passwordsHandlers } from './passwords.handlers';
export { passwordLink, passwordTokenHash, refuseBreachedPassword, tokenLifetimeMs } from './passwords.service';
export { refineNewPasswordIssues } from './policy-issues';
