import { ApiError } from '../../errors';
import { requireAuth, type PartialHandlers } from '../../http/operations';

// A device's push token belongs to whoever signed in on it last: registering moves it to the caller.
export const pushTokensHandlers: PartialHandlers<'putPushToken' | 'deletePushToken'> = {
  async putPushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const now = ctx.services.now();
    const row = await ctx.services.db
      .insertInto('push_tokens')
      .values({ token: ctx.path.id, user_id: userId, type: ctx.body.type, app_version: ctx.body.appVersion, updated_at: now })
      .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: userId, type: ctx.body.type, app_version: ctx.body.appVersion, updated_at: now }))
      .returning(['token', 'type', 'app_version', 'updated_at'])
      .executeTakeFirstOrThrow();
    return { status: 200, body: { id: row.token, type: row.type, appVersion: row.app_version, updatedAt: row.updated_at.toISOString() } };
  },
  async deletePushToken(ctx) {
    const { userId } = requireAuth(ctx);
    const deleted = await ctx.services.db.deleteFrom('push_tokens').where('token', '=', ctx.path.id).where('user_id', '=', userId).returning('token').executeTakeFirst();
    if (!deleted) throw new ApiError('NOT_FOUND', { message: 'No such push token' });
    return { status: 204 };
  },
};
