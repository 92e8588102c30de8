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

/** Maps any language tag (en-GB, pt-BR, sv) to a supported language, or the fallback. */
export function toLanguageCode(tag: string | undefined): LanguageCode {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (LANGUAGE_CODES as readonly string[]).includes(base) ? (base as LanguageCode) : FALLBACK_LANGUAGE;
}
