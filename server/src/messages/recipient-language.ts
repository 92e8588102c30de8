// The language a person reads: their own choice in the settings (user_settings.preferred_language).
import type { Executor } from '../db/database';
import { chooseLanguage, type Language } from './languages';

export async function preferredLanguageOf(db: Executor, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('user_settings')
    .select('preferred_language')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.preferred_language ?? null;
}

/** A user's language for a message; for sign-in messages `acceptLanguage` is what the sign-in app showed. */
export async function languageForUser(db: Executor, userId: number, acceptLanguage?: string | null): Promise<Language> {
  return chooseLanguage(await preferredLanguageOf(db, userId), acceptLanguage);
}
