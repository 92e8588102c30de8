import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { listOwnSecurityEvents, listTenantSecurityEvents } from './security-events.service';
import type { SecurityEventsDeps } from './security-events.deps';

export const securityEventsHandlers = (
  services: SecurityEventsDeps,
): PartialHandlers<'listSecurityEvents' | 'listOwnSecurityEvents'> => ({
  listSecurityEvents: async (ctx) => ({
    status: 200,
    body: await listTenantSecurityEvents(services, requireAuth(ctx), requireTenant(ctx), ctx.query ?? {}),
  }),
  listOwnSecurityEvents: async (ctx) => ({
    status: 200,
    body: await listOwnSecurityEvents(services, requireAuth(ctx), ctx.query ?? {}),
  }),
});
