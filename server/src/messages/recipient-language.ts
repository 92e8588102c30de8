// The language a person reads: their own choice in the settings (user_settings.preferred_language).
import type { Executor } from '../db/database';
import { chooseLanguage, type Language } from './languages';
import { findPreferredLanguage } from './messages.repository';

export const preferredLanguageOf = findPreferredLanguage;

/** A user's language for a message; for sign-in messages `acceptLanguage` is what the sign-in app showed. */
export async function languageForUser(db: Executor, userId: number, acceptLanguage?: string | null): Promise<Language> {
  return chooseLanguage(await preferredLanguageOf(db, userId), acceptLanguage);
}
