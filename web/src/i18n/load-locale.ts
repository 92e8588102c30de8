import { LANGUAGE_CODES } from './languages';

type Translations = Record<string, unknown>;

/**
 * The translations of one language, from /locales/<language>.json: emitted by the build beside the app, and
 * preloaded by index.html's boot script for the language it picked (so this fetch finds it on its way).
 */
export async function loadLocale(language: string): Promise<Translations> {
  if (!(LANGUAGE_CODES as readonly string[]).includes(language)) throw new Error(`No translations for ${language}`);
  const response = await fetch(new URL(`/locales/${language}.json`, document.baseURI));
  if (!response.ok) throw new Error(`Translations for ${language} answered ${response.status}`);
  return (await response.json()) as Translations;
}
