// The texts of every outbound message, per language: the same keys and {{placeholders}} as English, nothing
// empty, nothing left in English (like the sign-in app's locales test).
import { catalogs } from '../../src/messages/catalog';
import { languages } from '../../src/messages/languages';
import { placeholderPattern } from '../../src/messages/render';

type Tree = Record<string, Record<string, string>>;

const flatten = (tree: Tree): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([group, texts]) =>
      Object.entries(texts).map(([key, text]) => [`${group}.${key}`, text]),
    ),
  );

const placeholders = (text: string) => [...text.matchAll(placeholderPattern)].map((m) => m[1]).sort();

const english = flatten(catalogs.en);
const others = languages.filter((language) => language !== 'en');

/** Texts that are the same word in English and that language (checked by a speaker of it). */
const sameAsEnglish: Record<string, string[]> = {};

test('every supported language has a catalog, and nothing else does', () => {
  expect(Object.keys(catalogs).sort()).toEqual([...languages].sort());
});

describe.each(others)('the %s catalog', (language) => {
  const translated = flatten(catalogs[language]);

  test('has exactly the keys of en', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
  });

  test('has the same {{placeholders}} as en in every text', () => {
    for (const key of Object.keys(english)) {
      expect({ key, placeholders: placeholders(translated[key] ?? '') }).toEqual({
        key,
        placeholders: placeholders(english[key]),
      });
    }
  });

  test('has no empty text and no English left untranslated', () => {
    const allowed = sameAsEnglish[language] ?? [];
    const untranslated = Object.keys(english).filter(
      (key) => !translated[key]?.trim() || (translated[key] === english[key] && !allowed.includes(key)),
    );
    expect(untranslated).toEqual([]);
  });
});

test('placeholders are written {{likeThis}}, never half-open or single-braced', () => {
  for (const language of languages) {
    for (const [key, text] of Object.entries(flatten(catalogs[language]))) {
      const stripped = text.replace(placeholderPattern, '');
      expect({ language, key, stray: /[{}]/.test(stripped) }).toEqual({ language, key, stray: false });
    }
  }
});
