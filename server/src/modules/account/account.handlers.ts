import type { Request } from 'express';
import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { clientAddress } from '../../shared/client-address';
import { pageParams } from '../../shared/paging';
import { eventClient } from '../security-events';
import type { AccountDeps } from './account.deps';
import {
  changePassword,
  endMemberSessions,
  endOtherSessions,
  listMemberSessions,
  listOwnSessions,
} from './account.service';

const clientOf = (services: AccountDeps, req: Request) =>
  eventClient(services.config.region, clientAddress(req), req.headers['user-agent']);

export const accountHandlers = (
  services: AccountDeps,
): PartialHandlers<
  | 'listSessions'
  | 'deleteOtherSessions'
  | 'changePassword'
  | 'listMemberSessions'
  | 'deleteMemberSessions'
  | 'deleteMemberSession'
> => ({
  listSessions: async (ctx) => ({
    status: 200,
    body: await listOwnSessions(services, requireAuth(ctx), pageParams(ctx.query)),
  }),
  deleteOtherSessions: async (ctx) => ({
    status: 200,
    body: await endOtherSessions(services, requireAuth(ctx), clientOf(services, ctx.req)),
  }),
  changePassword: async (ctx) => {
    await changePassword(services, requireAuth(ctx), {
      currentPassword: ctx.body.currentPassword,
      newPassword: ctx.body.newPassword,
      ip: clientAddress(ctx.req),
      client: clientOf(services, ctx.req),
      acceptLanguage: ctx.req.headers['accept-language'],
    });
    return { status: 204 };
  },
  listMemberSessions: async (ctx) => ({
    status: 200,
    body: await listMemberSessions(
      services,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.path.userId,
      pageParams(ctx.query),
    ),
  }),
  deleteMemberSessions: async (ctx) => ({
    status: 200,
    body: await endMemberSessions(services, requireAuth(ctx), {
      tenantId: requireTenant(ctx),
      memberId: ctx.path.userId,
      client: clientOf(services, ctx.req),
    }),
  }),
  deleteMemberSession: async (ctx) => {
    await endMemberSessions(services, requireAuth(ctx), {
      tenantId: requireTenant(ctx),
      memberId: ctx.path.userId,
      client: clientOf(services, ctx.req),
      sessionId: ctx.path.sessionId,
    });
    return { status: 204 };
  },
});
