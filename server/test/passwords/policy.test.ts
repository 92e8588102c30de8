// The new-password policy of the spec (section 5): at least 10 characters, counted as the user sees them.
import { passwordPolicyIssues } from '../../src/modules/passwords/policy';

const rulesBroken = (password: string) => passwordPolicyIssues(password, 'password').map((issue) => issue.rule);

describe('the new-password policy', () => {
  test('attack: a 9-character password that meets every other rule is set', () => {
    expect(rulesBroken('Aa1!bcdef')).toEqual(['PASSWORD_TOO_SHORT']);
  });

  test('attack: a password of 9 characters, five of them emoji (14 UTF-16 units), passes as long enough', () => {
    expect(rulesBroken('Aa1!😀😀😀😀😀')).toEqual(['PASSWORD_TOO_SHORT']);
  });

  test('10 characters are enough', () => {
    expect(rulesBroken('Aa1!bcdefg')).toEqual([]);
  });
});
