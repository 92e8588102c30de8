// The account's self-service (its sessions, its password) and an administrator's view of a member's sessions: the
// module's public face.
export type { AccountDeps } from './account.deps';
export { accountHandlers } from './account.handlers';
