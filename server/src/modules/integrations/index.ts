// Integrations (a tenant's single sign-on settings): the module's public face.
export type { IntegrationsDeps } from './integrations.deps';
export { integrationsHandlers } from './integrations.handlers';
export { endpointIssues, loadOidcClient, saveOidcSettings } from './integrations.service';
