import { ApiFailure } from '../api/api-failure';
import { clockOffsetMs, toClientTime } from '../api/server-clock';
import { loginFailureMessage, twoFactorFailureMessage } from '../i18n/failure-messages';
import { formatWait, secondsUntil } from '../i18n/duration';
import { isSmsUnverified, needsOneTimeCode } from './factors';
import { codeFromText, sanitizeCode } from './one-time-code';

describe('sanitizeCode', () => {
  test.each([
    ['123456', '123456'],
    ['12 34 56', '123456'],
    ['abc123', '123'],
    ['1234567890', '123456'],
    ['١٢٣', ''],
    ['', ''],
  ])('when the input is %j, keeps %j', (input, kept) => {
    expect(sanitizeCode(input)).toBe(kept);
  });
});

describe('codeFromText (a pasted or filled-in code)', () => {
  test.each([
    ['valid 10 minutes: 518540', '518540'],
    ['Your verification code is 518540. Valid for 10 minutes.', '518540'],
    ['Your verification code is 518540. Valid for 10 minutes.\n\n@login.example-product.com #518540', '518540'],
    ['Code 111111, replaced by 222222', '222222'],
    ['518 540', '518540'],
    ['1234567', '123456'],
    ['12345', '12345'],
    ['no digits', ''],
  ])('when the text is %j, takes %j (the last run of exactly six digits, else the digits typed)', (text, code) => {
    expect(codeFromText(text)).toBe(code);
  });
});

describe('factors', () => {
  test.each([
    [{ password: 'verified' }, false, false],
    [{ password: 'verified', otpEmail: 'unverified' }, true, false],
    [{ password: 'verified', otpSms: 'unverified' }, true, true],
    [{ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' }, true, true],
    [{ password: 'verified', otpEmail: 'verified' }, false, false],
    [{ saml: 'unverified' }, false, false],
  ])('when the factors are %j, a code is needed: %s, SMS unverified: %s', (factors, needsCode, sms) => {
    expect(needsOneTimeCode(factors as never)).toBe(needsCode);
    expect(isSmsUnverified(factors as never)).toBe(sms);
  });
});

describe('waiting', () => {
  test('secondsUntil rounds up and never goes below zero', () => {
    expect(secondsUntil(10_001, 0)).toBe(11);
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(0, 5000)).toBe(0);
    expect(secondsUntil(null, 0)).toBe(0);
  });

  test.each([
    [45, 'en', '45 seconds'],
    [1, 'en', '1 second'],
    [150, 'en', '3 minutes'],
    [90, 'en', '90 seconds'],
    [91, 'en', '2 minutes'],
    [45, 'sv', '45 sekunder'],
    [300, 'fi', '5 minuuttia'],
  ])('formatWait(%i, %s) is %s', (seconds, language, text) => {
    expect(formatWait(seconds, language)).toBe(text);
  });
});

describe('server clock', () => {
  const answer = (date?: string) => new Response(null, { headers: date ? { date } : {} });

  test('when the Date header is ahead by minutes, the offset is those minutes', () => {
    const sent = Date.parse('2030-01-01T10:00:00.000Z');
    expect(clockOffsetMs(answer('Tue, 01 Jan 2030 10:05:00 GMT'), sent, sent)).toBe(300_500);
  });

  test('when the clocks agree within the Date header resolution, the offset is zero', () => {
    const sent = Date.parse('2030-01-01T10:00:00.300Z');
    expect(clockOffsetMs(answer('Tue, 01 Jan 2030 10:00:00 GMT'), sent, sent + 200)).toBe(0);
  });

  test('when there is no Date header, the offset is zero', () => {
    expect(clockOffsetMs(answer(), 0, 0)).toBe(0);
  });

  test('toClientTime moves a server instant onto the device clock', () => {
    expect(toClientTime('2030-01-01T10:05:20.000Z', 300_000)).toBe(Date.parse('2030-01-01T10:00:20.000Z'));
    expect(toClientTime(undefined, 0)).toBeNull();
    expect(toClientTime('not a date', 0)).toBeNull();
  });
});

describe('error codes to messages', () => {
  test.each([
    ['INVALID_CREDENTIALS', 'errors.invalidCredentials'],
    ['TOO_MANY_REQUESTS', 'errors.tooManyRequests'],
    ['NETWORK_ERROR', 'errors.generic'],
    ['INVALID_SESSION', 'errors.wrongLogin'],
    ['UNEXPECTED_RESPONSE', 'errors.wrongLogin'],
  ] as const)('on the login screen, %s shows %s', (code, key) => {
    expect(loginFailureMessage(new ApiFailure(code, 400)).key).toBe(key);
  });

  test.each([
    ['a proxy in front of the region (502, no envelope)', 'UNEXPECTED_RESPONSE', 502],
    ['a 503 without Retry-After', 'SERVICE_UNAVAILABLE', 503],
    ['a gateway timeout (504)', 'UNEXPECTED_RESPONSE', 504],
    ['a server error (500)', 'INTERNAL_SERVER_ERROR', 500],
  ] as const)('on the login screen, %s says the service is unavailable, never Wrong login', (_name, code, status) => {
    expect(loginFailureMessage(new ApiFailure(code, status))).toEqual({ key: 'errors.unavailable' });
  });

  test('on the login screen, 429 with unavailableUntil carries the end of the wait, in client time', () => {
    const until = Date.now() + 60_000;
    const message = loginFailureMessage(new ApiFailure('TOO_MANY_REQUESTS', 429, new Date(until).toISOString(), -5000));
    expect(message).toEqual({ key: 'errors.rateLimited', until: until + 5000 });
  });

  test('on the login screen, 429 whose unavailableUntil has passed says to try later', () => {
    expect(
      loginFailureMessage(new ApiFailure('TOO_MANY_REQUESTS', 429, new Date(Date.now() - 1000).toISOString())),
    ).toEqual({ key: 'errors.tooManyRequests' });
  });

  test.each([
    ['TOO_MANY_REQUESTS', 'errors.tooManyRequests'],
    ['INVALID_CREDENTIALS', 'errors.incorrectCode'],
    ['MFA_TOKEN_EXPIRED', 'errors.generic'],
    ['NETWORK_ERROR', 'errors.generic'],
  ] as const)('on the 2FA screen, %s shows %s', (code, key) => {
    expect(twoFactorFailureMessage(new ApiFailure(code, 400)).key).toBe(key);
  });
});
