import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { createTenantApiKey, deleteApiKeyOfTenant, listTenantApiKeys } from './api-keys.service';
import type { ApiKeysDeps } from './api-keys.deps';

export const apiKeyHandlers = (
  services: ApiKeysDeps,
): PartialHandlers<'listApiKeys' | 'createApiKey' | 'deleteApiKey'> => ({
  listApiKeys: async (ctx) => ({
    status: 200,
    body: await listTenantApiKeys(services, requireAuth(ctx), requireTenant(ctx), pageParams(ctx.query)),
  }),
  createApiKey: async (ctx) => ({
    status: 201,
    body: await createTenantApiKey(services, requireAuth(ctx), requireTenant(ctx), ctx.body.name),
  }),
  deleteApiKey: async (ctx) => {
    await deleteApiKeyOfTenant(services, requireAuth(ctx), requireTenant(ctx), ctx.path.apiKeyId);
    return { status: 204 };
  },
});
