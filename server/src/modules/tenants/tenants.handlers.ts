import { requireAuth, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { listTenantsOfUser } from './tenants.service';
import type { TenantsDeps } from './tenants.deps';

export const tenantHandlers = (services: TenantsDeps): PartialHandlers<'listTenants'> => ({
  listTenants: async (ctx) => {
    const auth = requireAuth(ctx);
    return { status: 200, body: await listTenantsOfUser(services.db, auth.userId, pageParams(ctx.query)) };
  },
});
