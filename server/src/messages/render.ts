// Fills a template of the catalog: {{name}} placeholders, every one required (a missing value is a bug, not a
// blank in someone's message). The HTML form escapes the template and each value.
import { catalogs, type Catalog } from './catalog';
import type { Language } from './languages';

export type MessageKey = { [G in keyof Catalog]: `${G}.${keyof Catalog[G] & string}` }[keyof Catalog];
export type Params = Record<string, string | number>;

export const placeholderPattern = /{{\s*(\w+)\s*}}/g;

export function template(language: Language, key: MessageKey): string {
  const [group, name] = key.split('.') as [keyof Catalog, string];
  return (catalogs[language][group] as Record<string, string>)[name];
}

function fill(text: string, params: Params, encode: (value: string) => string): string {
  return text.replace(placeholderPattern, (_match, name: string) => {
    if (!(name in params)) throw new Error(`message placeholder {{${name}}} has no value`);
    return encode(String(params[name]));
  });
}

/** The message as plain text (email text part, SMS, voice, push). */
export const t = (language: Language, key: MessageKey, params: Params = {}): string =>
  fill(template(language, key), params, (v) => v);

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The message as HTML text: template and values escaped. */
export const tHtml = (language: Language, key: MessageKey, params: Params = {}): string =>
  fill(escapeHtml(template(language, key)), params, escapeHtml);
