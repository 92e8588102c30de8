// Users: the module's public face.
export type { UsersDeps } from './users.deps';
export { userHandlers } from './users.handlers';
export { buildPermissions, memberPermissions } from './permission-flags';
export { defaultUserSettings } from './default-settings';
export { PermissionChangeRefused, allFlagNames, changeMemberPermissions, memberFlags } from './member-permissions';
