import type { LanguageCode } from './languages';

type Translations = Record<string, unknown>;

/* One chunk per language: only the languages in use are downloaded (Vite splits each import). */
const loaders: Record<LanguageCode, () => Promise<{ default: Translations }>> = {
  sv: () => import('./locales/sv.json'),
  en: () => import('./locales/en.json'),
  nl: () => import('./locales/nl.json'),
  fi: () => import('./locales/fi.json'),
  pt: () => import('./locales/pt.json'),
  es: () => import('./locales/es.json'),
};

export async function loadLocale(language: string): Promise<Translations> {
  const load = loaders[language as LanguageCode];
  if (!load) throw new Error(`No translations for ${language}`);
  return (await load()).default;
}
