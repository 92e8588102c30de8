import { createHash } from 'node:crypto';
import { ApiFailure } from '../api/api-failure';
import type { RegionTarget } from '../config/config';
import type { TranslationKey } from '../i18n/keys';
import { BRAZIL, EUROPE, NETWORK_DOWN, apiError, deferred, fakeApi } from '../test/fake-api';
import { findTokenRegion } from './find-token-region';
import { parsePasswordLink } from './password-link';
import { passwordFailureMessage } from './password-messages';
import { brokenPasswordRules, joinMessageKeys, ruleMessageKeys, splitMessageKeys } from './password-policy';
import { requestResetEverywhere } from './request-reset';

const targets: RegionTarget[] = [
  { region: 'eu-north-1', baseUrl: EUROPE },
  { region: 'sa-east-1', baseUrl: BRAZIL },
];
const TOKEN = 'Xq7vR2mN9kLp4sT8wY1zB6cD3fG5hJ0a';

describe('the password policy (spec section 5)', () => {
  test.each([
    ['Demo-Password-1!', []],
    ['Aa1!aaaaa', ['validation.passwordTooShort']],
    ['DEMO-PASSWORD-1!', ['validation.passwordMissingLowercase']],
    ['demo-password-1!', ['validation.passwordMissingUppercase']],
    ['Demo-Password-!', ['validation.passwordMissingDigit']],
    ['DemoPassword1', ['validation.passwordMissingSpecialCharacter']],
    ['Demo Passw0rd', []],
    ['Åsa-Lösen-1', []],
    [
      '',
      [
        'validation.passwordTooShort',
        'validation.passwordMissingLowercase',
        'validation.passwordMissingUppercase',
        'validation.passwordMissingDigit',
        'validation.passwordMissingSpecialCharacter',
      ],
    ],
    [
      'abc',
      [
        'validation.passwordTooShort',
        'validation.passwordMissingUppercase',
        'validation.passwordMissingDigit',
        'validation.passwordMissingSpecialCharacter',
      ],
    ],
  ])('when the password is %j, the broken rules are %j', (password, broken) => {
    expect(brokenPasswordRules(password)).toEqual(broken);
  });

  test('counts characters, not UTF-16 units: ten emoji-free letters pass, nine astral characters do not', () => {
    expect(brokenPasswordRules('Aa1!😀😀😀😀😀')).toEqual(['validation.passwordTooShort']);
    expect(brokenPasswordRules('Aa1!😀😀😀😀😀😀')).toEqual([]);
  });

  test('at most 256 characters (counted as the server counts them): 256 pass, 257 do not', () => {
    const base = 'Aa1!';
    expect(brokenPasswordRules(base + 'x'.repeat(252))).toEqual([]);
    expect(brokenPasswordRules(base + 'x'.repeat(253))).toEqual(['validation.passwordTooLong']);
    expect(brokenPasswordRules(base + '😀'.repeat(252))).toEqual([]);
  });

  test('a space, é or å counts as a special character, but not as a lowercase letter', () => {
    expect(brokenPasswordRules('DEMOPASSWORD 1')).toEqual(['validation.passwordMissingLowercase']);
    expect(brokenPasswordRules('Demopassword1é')).toEqual([]);
    expect(brokenPasswordRules('DEMOPASSWORDå1')).toEqual(['validation.passwordMissingLowercase']);
  });

  test('maps the server rule names to the same messages, in rule order, ignoring unknown rules', () => {
    expect(
      ruleMessageKeys(['PASSWORD_MISSING_SPECIAL_CHARACTER', 'PASSWORD_TOO_SHORT', 'PASSWORD_FROM_THE_FUTURE']),
    ).toEqual(['validation.passwordTooShort', 'validation.passwordMissingSpecialCharacter']);
    expect(ruleMessageKeys(['PASSWORD_ON_BREACH_LIST'])).toEqual(['validation.passwordOnBreachList']);
    expect(ruleMessageKeys(['PASSWORD_TOO_LONG'])).toEqual(['validation.passwordTooLong']);
    expect(ruleMessageKeys([])).toEqual([]);
  });

  test('several message keys survive the trip through one form error string', () => {
    const keys: TranslationKey[] = ['validation.passwordTooShort', 'validation.passwordMissingDigit'];
    expect(splitMessageKeys(joinMessageKeys(keys))).toEqual(keys);
    expect(splitMessageKeys('validation.newPasswordRequired')).toEqual(['validation.newPasswordRequired']);
  });
});

describe('parsePasswordLink', () => {
  test("keeps an invitation's platform; an unknown one is dropped without losing the link", () => {
    expect(parsePasswordLink(new URLSearchParams(`userId=42&token=${TOKEN}&platform=admin`))).toEqual({
      userId: 42,
      token: TOKEN,
      platform: 'admin',
    });
    expect(parsePasswordLink(new URLSearchParams(`userId=42&token=${TOKEN}&platform=evil`))).toEqual({
      userId: 42,
      token: TOKEN,
    });
  });

  test('when userId and token are well formed, returns them', () => {
    expect(parsePasswordLink(new URLSearchParams(`userId=42&token=${TOKEN}`))).toEqual({ userId: 42, token: TOKEN });
  });

  test('returns the region the link names', () => {
    expect(parsePasswordLink(new URLSearchParams(`userId=42&token=${TOKEN}&region=sa-east-1`))).toEqual({
      userId: 42,
      token: TOKEN,
      region: 'sa-east-1',
    });
  });

  test.each([
    ['', 'nothing'],
    [`token=${TOKEN}`, 'no userId'],
    ['userId=42', 'no token'],
    [`userId=0&token=${TOKEN}`, 'userId 0'],
    [`userId=-1&token=${TOKEN}`, 'a negative userId'],
    [`userId=042&token=${TOKEN}`, 'a leading zero'],
    [`userId=4.2&token=${TOKEN}`, 'a fractional userId'],
    [`userId=99999999999999999&token=${TOKEN}`, 'a userId beyond the safe integers'],
    ['userId=42&token=short', 'a token under 16 characters'],
    [`userId=42&token=${TOKEN}%2F`, 'a token with a slash'],
    [`userId=42&token=${'a'.repeat(257)}`, 'a token over 256 characters'],
    [`userId=42&token=${TOKEN}&region=mars-1`, 'a region that does not exist'],
  ])('when the query is %j (%s), the link is invalid', (query) => {
    expect(parsePasswordLink(new URLSearchParams(query))).toBeNull();
  });
});

describe('findTokenRegion', () => {
  const link = { userId: 7, token: TOKEN };
  const state = (value: string) => ({ status: 200, body: { state: value } });

  test('asks the first region for the state of a reset link with the token in a header, never in the URL', async () => {
    const { calls } = fakeApi(() => state('valid'));
    await expect(findTokenRegion('reset', link, targets)).resolves.toEqual({ state: 'valid', target: targets[0] });
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe('GET');
    expect(calls[0].url.href).toBe(`${EUROPE}/core/v1/users/7/password-reset`);
    expect(calls[0].headers.get('cosafe-password-token')).toBe(TOKEN);
    expect(calls[0].headers.get('cosafe-core-api-version')).toBe('1');
  });

  test.each([
    ['sa-east-1', BRAZIL, 1],
    ['eu-north-1', EUROPE, 0],
  ] as const)(
    'a link that names %s is checked there only, even when that region does not know it',
    async (region, origin, index) => {
      const { calls } = fakeApi(() => state('valid'));
      await expect(findTokenRegion('reset', { ...link, region }, targets)).resolves.toEqual({
        state: 'valid',
        target: targets[index],
      });
      expect(calls.map((call) => call.url.origin)).toEqual([origin]);
      const unknown = fakeApi(() => state('invalid'));
      await expect(findTokenRegion('set', { ...link, region }, targets)).resolves.toEqual({ state: 'invalid' });
      expect(unknown.calls.map((call) => call.url.origin)).toEqual([origin]);
    },
  );

  test('a link that names a region this app does not serve is invalid, and the token goes nowhere', async () => {
    const { calls } = fakeApi(() => state('valid'));
    await expect(findTokenRegion('reset', { ...link, region: 'se-sto' }, targets)).resolves.toEqual({
      state: 'invalid',
    });
    expect(calls).toHaveLength(0);
  });

  test('asks about an invitation link at /password-set', async () => {
    const { calls } = fakeApi(() => state('used'));
    await expect(findTokenRegion('set', link, targets)).resolves.toEqual({ state: 'used', target: targets[0] });
    expect(calls[0].url.pathname).toBe('/core/v1/users/7/password-set');
  });

  test.each(['valid', 'expired', 'used'])(
    'when the first region does not know the token and the second says %s, uses the second',
    async (answer) => {
      const { calls } = fakeApi(({ url }) => (url.origin === EUROPE ? state('invalid') : state(answer)));
      await expect(findTokenRegion('reset', link, targets)).resolves.toEqual({ state: answer, target: targets[1] });
      expect(calls.map((call) => call.url.origin)).toEqual([EUROPE, BRAZIL]);
    },
  );

  test('asks the regions one after another, not at once', async () => {
    const europe = deferred<{ status: number; body: unknown }>();
    const { calls } = fakeApi(({ url }) => (url.origin === EUROPE ? europe.promise : state('valid')));
    const lookup = findTokenRegion('reset', link, targets);
    await new Promise((done) => setTimeout(done, 20));
    expect(calls).toHaveLength(1);
    europe.resolve(state('invalid'));
    await expect(lookup).resolves.toEqual({ state: 'valid', target: targets[1] });
  });

  test('when every region answers invalid, the link is invalid', async () => {
    fakeApi(() => state('invalid'));
    await expect(findTokenRegion('set', link, targets)).resolves.toEqual({ state: 'invalid' });
  });

  test('when a region cannot answer but another knows the token, uses the one that knows it', async () => {
    fakeApi(({ url }) => {
      if (url.origin === EUROPE) throw new TypeError('fetch failed');
      return state('valid');
    });
    await expect(findTokenRegion('reset', link, targets)).resolves.toEqual({ state: 'valid', target: targets[1] });
  });

  test('when no region knows the token and one could not answer, throws rather than calling the link invalid', async () => {
    fakeApi(({ url }) => (url.origin === EUROPE ? state('invalid') : apiError(503, 'SERVICE_UNAVAILABLE')));
    await expect(findTokenRegion('reset', link, targets)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    fakeApi(NETWORK_DOWN);
    await expect(findTokenRegion('reset', link, targets)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  test('when a region is rate limiting and none knows the token, throws the 429 with the latest wait', async () => {
    fakeApi(({ url }) =>
      url.origin === EUROPE
        ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:30.000Z' })
        : apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:05:00.000Z' }),
    );
    await expect(findTokenRegion('reset', link, targets)).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      unavailableUntil: '2030-01-01T10:05:00.000Z',
    });
  });
});

describe('requestResetEverywhere', () => {
  const hash = createHash('sha256').update('anna@demo.test').digest('hex');
  const accepted = { status: 202 };

  test('posts { emailHash } (SHA-256 hex of the lowercased email) with the version header to every region at once', async () => {
    const bothAsked = deferred();
    let asked = 0;
    const { calls } = fakeApi(async () => {
      asked += 1;
      if (asked === 2) bothAsked.resolve();
      await bothAsked.promise;
      return accepted;
    });
    await requestResetEverywhere({ email: ' Anna@Demo.TEST ', clientType: null, targets, language: 'en' });
    expect(calls.map((call) => `${call.method} ${call.url.href}`).sort()).toEqual([
      `POST ${EUROPE}/core/v1/users/password-reset`,
      `POST ${BRAZIL}/core/v1/users/password-reset`,
    ]);
    for (const call of calls) {
      expect(call.body).toEqual({ emailHash: hash });
      expect(call.headers.get('cosafe-core-api-version')).toBe('1');
    }
  });

  test('when the client type is academy, does not ask Brazil', async () => {
    const { calls } = fakeApi(() => accepted);
    await requestResetEverywhere({ email: 'anna@demo.test', clientType: 'academy', targets, language: 'en' });
    expect(calls.map((call) => call.url.origin)).toEqual([EUROPE]);
  });

  test('when a region rate limits, throws its 429 with the latest wait', async () => {
    fakeApi(({ url }) =>
      url.origin === EUROPE
        ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T11:00:00.000Z' })
        : accepted,
    );
    await expect(
      requestResetEverywhere({ email: 'anna@demo.test', clientType: null, targets, language: 'en' }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      unavailableUntil: '2030-01-01T11:00:00.000Z',
    });
  });

  test('when a region cannot be reached, throws (the account may live there)', async () => {
    fakeApi(({ url }) => {
      if (url.origin === BRAZIL) throw new TypeError('fetch failed');
      return accepted;
    });
    await expect(
      requestResetEverywhere({ email: 'anna@demo.test', clientType: null, targets, language: 'en' }),
    ).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });
});

describe('passwordFailureMessage', () => {
  test('a 429 says how long to wait; without a wait, to try later; anything else, to try again', () => {
    const inOneMinute = Date.now() + 60_000;
    expect(
      passwordFailureMessage(new ApiFailure('TOO_MANY_REQUESTS', 429, new Date(inOneMinute).toISOString())),
    ).toEqual({ key: 'errors.rateLimited', until: inOneMinute });
    expect(passwordFailureMessage(new ApiFailure('TOO_MANY_REQUESTS', 429))).toEqual({ key: 'errors.tooManyRequests' });
    expect(passwordFailureMessage(new ApiFailure('NETWORK_ERROR', 0))).toEqual({ key: 'errors.generic' });
    expect(passwordFailureMessage(new ApiFailure('INTERNAL_SERVER_ERROR', 500))).toEqual({ key: 'errors.generic' });
  });
});
