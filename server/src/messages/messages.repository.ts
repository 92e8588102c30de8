// The statements of the outbound texts: what they read of the recipient.
import type { Executor } from '../db/database';

/** The language the user chose in the settings (user_settings.preferred_language), if any. */
export async function findPreferredLanguage(db: Executor, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('user_settings')
    .select('preferred_language')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.preferred_language ?? null;
}
