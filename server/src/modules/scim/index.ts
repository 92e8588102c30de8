// SCIM 2.0 provisioning: the module's public face.
export type { ScimDeps } from './scim.deps';
export { scimHandlers } from './scim.handlers';
export { authenticateScimKey } from './scim-auth';
export { scimErrorHandler, scimErrorShape } from './scim-errors';
