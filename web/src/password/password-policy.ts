import { type TranslationKey, fromFormError } from '../i18n/keys';

/** The contract's bounds of a new password, in characters (code points, as the server counts them). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The new-password rules of spec section 5, in the order the server reports them, and the contract's maximum
 * length. `rule` is the name the server gives a broken rule in `error.issues[].rule`; `key` the message shown for
 * it. A special character is anything but a-z, A-Z and 0-9: a space, punctuation, and letters such as é or å.
 */
export const PASSWORD_RULES = [
  {
    rule: 'PASSWORD_TOO_SHORT',
    key: 'validation.passwordTooShort',
    test: (password: string) => [...password].length >= PASSWORD_MIN_LENGTH,
  },
  {
    rule: 'PASSWORD_TOO_LONG',
    key: 'validation.passwordTooLong',
    test: (password: string) => [...password].length <= PASSWORD_MAX_LENGTH,
  },
  {
    rule: 'PASSWORD_MISSING_LOWERCASE',
    key: 'validation.passwordMissingLowercase',
    test: (password: string) => /[a-z]/.test(password),
  },
  {
    rule: 'PASSWORD_MISSING_UPPERCASE',
    key: 'validation.passwordMissingUppercase',
    test: (password: string) => /[A-Z]/.test(password),
  },
  {
    rule: 'PASSWORD_MISSING_DIGIT',
    key: 'validation.passwordMissingDigit',
    test: (password: string) => /[0-9]/.test(password),
  },
  {
    rule: 'PASSWORD_MISSING_SPECIAL_CHARACTER',
    key: 'validation.passwordMissingSpecialCharacter',
    test: (password: string) => /[^A-Za-z0-9]/.test(password),
  },
] as const;

export type PasswordRule = (typeof PASSWORD_RULES)[number]['rule'];

/** Message keys of the rules the password breaks, in rule order (empty: the password is acceptable). */
export function brokenPasswordRules(password: string): TranslationKey[] {
  return PASSWORD_RULES.filter(({ test }) => !test(password)).map(({ key }) => key);
}

/** Rules only the server can check (the list of common and breached passwords), after the ones above. */
const SERVER_RULES = [{ rule: 'PASSWORD_ON_BREACH_LIST', key: 'validation.passwordOnBreachList' }] as const;

/** Message keys for the rules a server answer names; rules this app does not know are left out. */
export function ruleMessageKeys(rules: readonly string[]): TranslationKey[] {
  return [...PASSWORD_RULES, ...SERVER_RULES].filter(({ rule }) => rules.includes(rule)).map(({ key }) => key);
}

/** Several messages travel through the form as one error string, one message key per line. */
export const joinMessageKeys = (keys: readonly TranslationKey[]) => keys.join('\n');
export const splitMessageKeys = (joined: string) => joined.split('\n').filter(Boolean).map(fromFormError);
