import { ApiError } from '../../errors';
import { requireAuth, type PartialHandlers } from '../../http/operations';
import { deleteUserPushToken, upsertPushToken } from './push-tokens.repository';
import type { PushTokensDeps } from './push-tokens.deps';

// A device's push token belongs to whoever signed in on it last: registering moves it to the caller.
export const pushTokensHandlers = (services: PushTokensDeps): PartialHandlers<'putPushToken' | 'deletePushToken'> => ({
  async putPushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const [row] = await upsertPushToken(services.db, {
      token: ctx.path.id,
      userId,
      type: ctx.body.type,
      appVersion: ctx.body.appVersion,
      now: services.now(),
    });
    return {
      status: 200,
      body: { id: row.token, type: row.type, appVersion: row.app_version, updatedAt: row.updated_at.toISOString() },
    };
  },
  async deletePushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const [deleted] = await deleteUserPushToken(services.db, { token: ctx.path.id, userId });
    if (!deleted) throw new ApiError('NOT_FOUND', { message: 'No such push token' });
    return { status: 204 };
  },
});
