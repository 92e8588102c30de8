export const LANGUAGES = [
  { code: 'sv', name: 'Svenska' },
  { code: 'en', name: 'English (UK)' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'fi', name: 'Suomi' },
  { code: 'pt', name: 'Português' },
  { code: 'es', name: 'Español' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((language) => language.code);

export const FALLBACK_LANGUAGE: LanguageCode = 'en';

/** The supported language a tag names (en-GB, pt-BR, sv), or null. */
export function supportedLanguage(tag: string | null | undefined): LanguageCode | null {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (LANGUAGE_CODES as readonly string[]).includes(base) ? (base as LanguageCode) : null;
}

/** Maps any language tag (en-GB, pt-BR, sv) to a supported language, or the fallback. */
export function toLanguageCode(tag: string | undefined): LanguageCode {
  return supportedLanguage(tag) ?? FALLBACK_LANGUAGE;
}
