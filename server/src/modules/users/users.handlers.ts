import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import {
  getOwnPermissions,
  getOwnSettings,
  getUserProfile,
  updateOwnProfile,
  updateOwnSettings,
} from './users.service';
import type { UsersDeps } from './users.deps';

type UserOperations = 'getUser' | 'updateUser' | 'getUserSettings' | 'updateUserSettings' | 'getUserPermissions';

export const userHandlers = (services: UsersDeps): PartialHandlers<UserOperations> => ({
  getUser: async (ctx) => ({
    status: 200,
    body: await getUserProfile(services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
  updateUser: async (ctx) => ({
    status: 200,
    body: await updateOwnProfile(services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId, ctx.body),
  }),
  getUserSettings: async (ctx) => ({
    status: 200,
    body: await getOwnSettings(services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
  updateUserSettings: async (ctx) => ({
    status: 200,
    body: await updateOwnSettings(services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId, ctx.body),
  }),
  getUserPermissions: async (ctx) => ({
    status: 200,
    body: await getOwnPermissions(services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
});
