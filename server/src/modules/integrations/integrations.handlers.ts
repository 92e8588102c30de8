import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { getTenantOidcSettings, putTenantOidcSettings } from './integrations.service';
import type { IntegrationsDeps } from './integrations.deps';

export const integrationsHandlers = (
  services: IntegrationsDeps,
): PartialHandlers<'getOidcSettings' | 'putOidcSettings'> => ({
  getOidcSettings: async (ctx) => ({
    status: 200,
    body: await getTenantOidcSettings(services, requireAuth(ctx), requireTenant(ctx)),
  }),
  putOidcSettings: async (ctx) => ({
    status: 200,
    body: await putTenantOidcSettings(services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
});
