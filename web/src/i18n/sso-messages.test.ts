import { ApiFailure } from '../api/api-failure';
import { SsoFailure } from '../login/sso-flow';
import { locales } from '../test/i18n';
import { ssoFailureMessage } from './sso-messages';

const en = locales.en as { sso: { errors: Record<string, string> } };

describe('single sign-on messages', () => {
  test.each([
    ['INVALID_SSO_CONFIGURATION', 'sso.errors.configuration'],
    ['INVALID_REDIRECT_URI', 'sso.errors.configuration'],
    ['SSO_CHALLENGE_EXPIRED', 'sso.errors.expired'],
    ['EXPIRED_ACCESS_TOKEN', 'sso.errors.expired'],
    ['INVALID_SESSION', 'sso.errors.expired'],
    ['AUTHORIZATION_CODE_NOT_FOUND', 'sso.errors.codeNotFound'],
    ['INVALID_SSO_AUTHORIZATION_CODE', 'sso.errors.authorizationCode'],
    ['INVALID_SSO_ID_TOKEN', 'sso.errors.idToken'],
    ['SKOLON_USER_NOT_TEACHER', 'sso.errors.skolonNotTeacher'],
    ['SERVICE_UNAVAILABLE', 'sso.errors.unavailable'],
    ['NETWORK_ERROR', 'errors.generic'],
    ['INTERNAL_SERVER_ERROR', 'errors.generic'],
    ['TOO_MANY_REQUESTS', 'errors.tooManyRequests'],
  ] as const)('the server’s %s shows %s', (code, key) => {
    expect(ssoFailureMessage(new ApiFailure(code, 400), 'finish').key).toBe(key);
  });

  test('INVALID_CREDENTIALS is an identity without an account in the organisation when finishing (and, from an older region, no account for the email when starting)', () => {
    expect(ssoFailureMessage(new ApiFailure('INVALID_CREDENTIALS', 401), 'start').key).toBe('sso.errors.noAccount');
    expect(ssoFailureMessage(new ApiFailure('INVALID_CREDENTIALS', 401), 'finish').key).toBe(
      'sso.errors.unauthorizedOrganization',
    );
  });

  test('429 with unavailableUntil says how long to wait', () => {
    const inOneMinute = Date.now() + 60_000;
    expect(
      ssoFailureMessage(new ApiFailure('TOO_MANY_REQUESTS', 429, new Date(inOneMinute).toISOString()), 'start'),
    ).toEqual({ key: 'errors.rateLimited', until: inOneMinute });
  });

  test.each([
    ['NO_SSO_FOR_DOMAIN', 'sso.errors.noSso'],
    ['SSO_NOT_STARTED', 'sso.errors.notStarted'],
    ['SSO_STATE_MISMATCH', 'sso.errors.mismatch'],
    ['SSO_REFUSED', 'sso.errors.refused'],
    ['saml_validation_failed', 'sso.errors.samlValidationFailed'],
    ['user_not_found', 'sso.errors.userNotFound'],
    ['unauthorized_organization', 'sso.errors.unauthorizedOrganization'],
  ] as const)('the browser’s %s shows %s', (problem, key) => {
    expect(ssoFailureMessage(new SsoFailure(problem), 'finish').key).toBe(key);
  });

  test('every SSO message key has an English text', () => {
    const keys = [
      'noSso',
      'noAccount',
      'configuration',
      'expired',
      'codeNotFound',
      'authorizationCode',
      'idToken',
      'skolonNotTeacher',
      'userNotFound',
      'unauthorizedOrganization',
      'samlValidationFailed',
      'mismatch',
      'notStarted',
      'refused',
      'unavailable',
    ];
    expect(Object.keys(en.sso.errors).sort()).toEqual(keys.sort());
  });

  test('anything thrown that is not a failure reads as Something went wrong', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(ssoFailureMessage(new TypeError('boom'), 'start').key).toBe('errors.generic');
  });
});
