import { locales } from '../test/i18n';
import { LANGUAGES } from './languages';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((flat, [key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? { ...flat, [path]: value } : { ...flat, ...flatten(value, path) };
  }, {});
}

const placeholders = (text: string) => (text.match(/{{\s*[\w.]+\s*}}/g) ?? []).map((p) => p.replace(/\s/g, '')).sort();

const english = flatten(locales.en as Tree);
const others = Object.keys(locales).filter((code) => code !== 'en');

/** Words that are spelled the same in English and the other language (checked by a native speaker). */
const SAME_AS_ENGLISH: Record<string, string[]> = { sv: ['region.label'] };

test('every supported language has a locale file, and nothing else does', () => {
  expect(Object.keys(locales).sort()).toEqual(LANGUAGES.map((language) => language.code).sort());
});

test('the language picker names are Svenska, English (UK), Nederlands, Suomi, Português and Español', () => {
  expect(LANGUAGES.map((language) => language.name)).toEqual([
    'Svenska',
    'English (UK)',
    'Nederlands',
    'Suomi',
    'Português',
    'Español',
  ]);
});

describe.each(others)('the %s locale', (code) => {
  const translated = flatten(locales[code] as Tree);

  test('has exactly the keys of en', () => {
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
  });

  test('has the same {{placeholders}} as en in every message', () => {
    for (const key of Object.keys(english)) {
      expect({ key, placeholders: placeholders(translated[key] ?? '') }).toEqual({
        key,
        placeholders: placeholders(english[key]),
      });
    }
  });

  test('has no empty message and no English left untranslated', () => {
    const allowed = SAME_AS_ENGLISH[code] ?? [];
    const untranslated = Object.keys(english).filter(
      (key) => !translated[key]?.trim() || (translated[key] === english[key] && !allowed.includes(key)),
    );
    expect(untranslated).toEqual([]);
  });
});

test('en has the spec texts word for word', () => {
  expect(english).toMatchObject({
    'login.title': 'Log in to the product',
    'login.sso': 'Log in with SSO',
    'validation.emailRequired': 'Type in your email',
    'validation.emailInvalid': 'Incorrect email',
    'validation.passwordRequired': 'Type in your password',
    'validation.regionRequired': 'Please select region',
    'validation.codeRequired': 'Type in verification code',
    'validation.codeLength': 'Verification code must be 6 digits',
    'validation.passwordTooShort': 'Password must be at least 10 characters',
    'validation.passwordMissingLowercase': 'Password must contain a lowercase letter',
    'validation.passwordMissingUppercase': 'Password must contain an uppercase letter',
    'validation.passwordMissingDigit': 'Password must contain a number',
    'validation.passwordMissingSpecialCharacter': 'Password must contain a special character',
    'errors.invalidCredentials': 'Email or password is incorrect',
    'errors.wrongLogin': 'Wrong login',
    'errors.tooManyRequests': 'Too many requests. Please try again later.',
    'errors.incorrectCode': 'Incorrect verification code',
    'errors.generic': 'Something went wrong. Please try again.',
    'region.europe': 'Europe',
    'region.sweden': 'Sweden',
    'region.brazil': 'Brazil',
    'twoFactor.titleEmail': 'Verify with email',
    'twoFactor.titleSms': 'Verify with phone number',
    'twoFactor.verify': 'Verify',
    'twoFactor.resendEmail': 'Resend via email',
    'twoFactor.resendSms': 'Resend via SMS',
    'twoFactor.countdown': 'Another try in {{seconds}}',
    'errorPage.title': 'Oops! Something went wrong',
    'invalidRedirect.title': 'Login redirect failed. Please try logging in again',
  });
});
