import type { ValidationIssue } from '../../errors';

/** The new-password policy of the spec (section 5): one issue per broken rule, with its stable rule name. */
const rules: { rule: string; message: string; test: (p: string) => boolean }[] = [
  { rule: 'PASSWORD_TOO_SHORT', message: 'Password must be at least 10 characters', test: (p) => [...p].length >= 10 },
  { rule: 'PASSWORD_TOO_LONG', message: 'Password must be at most 256 characters', test: (p) => [...p].length <= 256 },
  {
    rule: 'PASSWORD_MISSING_LOWERCASE',
    message: 'Password must contain a lowercase letter',
    test: (p) => /[a-z]/.test(p),
  },
  {
    rule: 'PASSWORD_MISSING_UPPERCASE',
    message: 'Password must contain an uppercase letter',
    test: (p) => /[A-Z]/.test(p),
  },
  { rule: 'PASSWORD_MISSING_DIGIT', message: 'Password must contain a number', test: (p) => /[0-9]/.test(p) },
  {
    rule: 'PASSWORD_MISSING_SPECIAL_CHARACTER',
    message: 'Password must contain a special character',
    test: (p) => /[^A-Za-z0-9]/.test(p),
  },
];

export function passwordPolicyIssues(password: string, path: string): ValidationIssue[] {
  return rules.filter((r) => !r.test(password)).map((r) => ({ where: 'body', path, message: r.message, rule: r.rule }));
}
