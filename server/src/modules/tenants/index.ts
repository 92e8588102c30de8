// Tenants: the module's public face.
export type { TenantsDeps } from './tenants.deps';
export { tenantHandlers } from './tenants.handlers';
