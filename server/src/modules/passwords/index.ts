// Passwords (set, reset and their links): the module's public face.
export { passwordsHandlers } from './passwords.handlers';
export { passwordLink, passwordTokenHash, tokenLifetimeMs } from './passwords.service';
export { refineNewPasswordIssues } from './policy-issues';
