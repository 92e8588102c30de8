// The languages the platform speaks to people in: the sign-in app's six (spec section 9), English the fallback.
import Negotiator from 'negotiator';

export const languages = ['sv', 'en', 'nl', 'fi', 'es', 'pt'] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = 'en';

/** The locale used for numbers, dates and units: British English (as the sign-in app's "English (UK)"), Brazilian Portuguese. */
export const intlLocale: Record<Language, string> = {
  sv: 'sv-SE',
  en: 'en-GB',
  nl: 'nl-NL',
  fi: 'fi-FI',
  es: 'es-ES',
  pt: 'pt-BR',
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/** A language tag (sv, pt-BR, EN_gb) as a supported language, or null. */
export function languageOfTag(tag: string | null | undefined): Language | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

// English first, so `Accept-Language: *` (any language) picks the fallback.
const offered = [fallbackLanguage, ...languages.filter((l) => l !== fallbackLanguage)];

/**
 * The best supported language of an Accept-Language header (q-values respected, `sv-SE` matches `sv`), or null
 * when it names none of them. Never throws: a malformed header is a header that names nothing.
 */
export function negotiateLanguage(header: string | null | undefined): Language | null {
  if (typeof header !== 'string' || header.trim() === '' || header.length > 1_000) return null;
  try {
    const best = new Negotiator({ headers: { 'accept-language': header } }).language(offered);
    return isLanguage(best) ? best : null;
  } catch {
    return null;
  }
}

/**
 * Whom a message speaks to: the recipient's chosen language; for sign-in messages without one, the language the
 * sign-in app showed (its Accept-Language); else English.
 */
export function chooseLanguage(preferred: string | null | undefined, acceptLanguage?: string | null): Language {
  return languageOfTag(preferred) ?? negotiateLanguage(acceptLanguage) ?? fallbackLanguage;
}
