// Tenants: the module's public face.
export { tenantHandlers } from './tenants.handlers';
