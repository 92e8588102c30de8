import { prepared, type Placeholders } from '../../db/prepared';
import type { PushTokenType } from '../../db/column-types';

/** Registers a device's push token for the user, taking it over from whoever held it before. */
export const upsertPushToken = prepared(
  (db, p: Placeholders<{ token: string; userId: number; type: PushTokenType; appVersion: string; now: Date }>) =>
    db
      .insertInto('push_tokens')
      .values({ token: p.token, user_id: p.userId, type: p.type, app_version: p.appVersion, updated_at: p.now })
      .onConflict((oc) =>
        oc
          .column('token')
          .doUpdateSet({ user_id: p.userId, type: p.type, app_version: p.appVersion, updated_at: p.now }),
      )
      .returning(['token', 'type', 'app_version', 'updated_at']),
);

/** Deletes the user's push token; answers it if there was one. */
export const deleteUserPushToken = prepared((db, p: Placeholders<{ token: string; userId: number }>) =>
  db.deleteFrom('push_tokens').where('token', '=', p.token).where('user_id', '=', p.userId).returning('token'),
);
