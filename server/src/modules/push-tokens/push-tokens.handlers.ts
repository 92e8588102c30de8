import { ApiError } from '../../errors';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { deleteUserPushToken, upsertPushToken } from './push-tokens.repository';

// A device's push token belongs to whoever signed in on it last: registering moves it to the caller.
export const pushTokensHandlers: PartialHandlers<'putPushToken' | 'deletePushToken'> = {
  async putPushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const [row] = await upsertPushToken(ctx.services.db, {
      token: ctx.path.id,
      userId,
      type: ctx.body.type,
      appVersion: ctx.body.appVersion,
      now: ctx.services.now(),
    });
    return {
      status: 200,
      body: { id: row.token, type: row.type, appVersion: row.app_version, updatedAt: row.updated_at.toISOString() },
    };
  },
  async deletePushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const [deleted] = await deleteUserPushToken(ctx.services.db, { token: ctx.path.id, userId });
    if (!deleted) throw new ApiError('NOT_FOUND', { message: 'No such push token' });
    return { status: 204 };
  },
};
