/**
 * The new-password rules of spec section 5, in the order the server reports them. `rule` is the name the server
 * gives a broken rule in `error.issues[].rule`; `key` the message shown for it.
 */
export const PASSWORD_RULES = [
  { rule: 'PASSWORD_TOO_SHORT', key: 'validation.passwordTooShort', test: (password: string) => [...password].length >= 10 },
  { rule: 'PASSWORD_MISSING_LOWERCASE', key: 'validation.passwordMissingLowercase', test: (password: string) => /[a-z]/.test(password) },
  { rule: 'PASSWORD_MISSING_UPPERCASE', key: 'validation.passwordMissingUppercase', test: (password: string) => /[A-Z]/.test(password) },
  { rule: 'PASSWORD_MISSING_DIGIT', key: 'validation.passwordMissingDigit', test: (password: string) => /[0-9]/.test(password) },
  { rule: 'PASSWORD_MISSING_SPECIAL_CHARACTER', key: 'validation.passwordMissingSpecialCharacter', test: (password: string) => /[^A-Za-z0-9]/.test(password) },
] as const;

export type PasswordRule = (typeof PASSWORD_RULES)[number]['rule'];

/** Message keys of the rules the password breaks, in rule order (empty: the password is acceptable). */
export function brokenPasswordRules(password: string): string[] {
  return PASSWORD_RULES.filter(({ test }) => !test(password)).map(({ key }) => key);
}

/** Message keys for the rules a server answer names; rules this app does not know are left out. */
export function ruleMessageKeys(rules: readonly string[]): string[] {
  return PASSWORD_RULES.filter(({ rule }) => rules.includes(rule)).map(({ key }) => key);
}

/** Several messages travel through formik as one error string, one message key per line. */
export const joinMessageKeys = (keys: readonly string[]) => keys.join('\n');
export const splitMessageKeys = (joined: string) => joined.split('\n').filter(Boolean);
