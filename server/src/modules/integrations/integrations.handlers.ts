import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { getTenantOidcSettings, putTenantOidcSettings } from './integrations.service';

export const integrationsHandlers: PartialHandlers<'getOidcSettings' | 'putOidcSettings'> = {
  getOidcSettings: async (ctx) => ({
    status: 200,
    body: await getTenantOidcSettings(ctx.services, requireAuth(ctx), requireTenant(ctx)),
  }),
  putOidcSettings: async (ctx) => ({
    status: 200,
    body: await putTenantOidcSettings(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
};
