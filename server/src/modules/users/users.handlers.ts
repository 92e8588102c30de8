import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import {
  getOwnPermissions,
  getOwnSettings,
  getUserProfile,
  updateOwnProfile,
  updateOwnSettings,
} from './users.service';

type UserOperations = 'getUser' | 'updateUser' | 'getUserSettings' | 'updateUserSettings' | 'getUserPermissions';

export const userHandlers: PartialHandlers<UserOperations> = {
  getUser: async (ctx) => ({
    status: 200,
    body: await getUserProfile(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
  updateUser: async (ctx) => ({
    status: 200,
    body: await updateOwnProfile(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId, ctx.body),
  }),
  getUserSettings: async (ctx) => ({
    status: 200,
    body: await getOwnSettings(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
  updateUserSettings: async (ctx) => ({
    status: 200,
    body: await updateOwnSettings(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId, ctx.body),
  }),
  getUserPermissions: async (ctx) => ({
    status: 200,
    body: await getOwnPermissions(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.userId),
  }),
};
