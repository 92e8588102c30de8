import { requireAuth, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { listTenantsOfUser } from './tenants.service';

export const tenantHandlers: PartialHandlers<'listTenants'> = {
  listTenants: async (ctx) => {
    const auth = requireAuth(ctx);
    return { status: 200, body: await listTenantsOfUser(ctx.services.db, auth.userId, pageParams(ctx.query)) };
  },
};
