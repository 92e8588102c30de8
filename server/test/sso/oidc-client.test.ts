// The OIDC client's rules that a sign-in against a working provider does not show: what each failure of the code
// exchange answers, settings the client cannot be built from, and plain-HTTP providers outside development.
import { ApiError } from '../../src/errors';
import { client, exchangeError, oidcConfiguration, type OidcProvider } from '../../src/modules/sso/oidc-client';
import { OutboundUnreachable, type OutboundClient } from '../../src/security/outbound';

const provider: OidcProvider = {
  issuer: 'http://127.0.0.1:9/issuer',
  authorizationEndpoint: 'http://127.0.0.1:9/auth',
  tokenEndpoint: 'http://127.0.0.1:9/token',
  jwksUri: 'http://127.0.0.1:9/jwks',
  clientId: 'core-api-test',
  clientSecret: 'test-client-secret-0123456789abcdef',
};

/** An outbound client that makes no request and remembers where it was asked to go. */
function recordingOutbound() {
  const asked: string[] = [];
  const outbound: OutboundClient = {
    fetch: async (url) => {
      asked.push(String(url));
      throw new OutboundUnreachable('refused by the test');
    },
    close: async () => undefined,
  };
  return { outbound, asked };
}

const answerOf = (error: ApiError) => ({ code: error.code, message: error.message });

describe('the code exchange, failing', () => {
  test.each([
    'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
    'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
    'OAUTH_KEY_SELECTION_FAILED',
    'OAUTH_INVALID_RESPONSE',
    'OAUTH_PARSE_ERROR',
  ])('on an ID token that fails a check (%s) answers INVALID_SSO_ID_TOKEN', (code) => {
    expect(answerOf(exchangeError(Object.assign(new Error('check failed'), { code })))).toEqual({
      code: 'INVALID_SSO_ID_TOKEN',
      message: "The identity provider's ID token is not valid",
    });
  });

  test.each([
    'OAUTH_RESPONSE_IS_NOT_CONFORM',
    'OAUTH_RESPONSE_IS_NOT_JSON',
    'OAUTH_HTTP_REQUEST_FORBIDDEN',
    'OAUTH_REQUEST_PROTOCOL_FORBIDDEN',
    'OAUTH_UNSUPPORTED_OPERATION',
    'OAUTH_MISSING_SERVER_METADATA',
    'OAUTH_INVALID_SERVER_METADATA',
  ])('on a provider that does not answer as configured (%s) answers INVALID_SSO_CONFIGURATION', (code) => {
    expect(answerOf(exchangeError(Object.assign(new Error('not as configured'), { code })))).toEqual({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The identity provider did not answer as configured',
    });
  });

  test.each([
    ['the provider refusing the code', Object.assign(new Error('invalid_grant'), { name: 'ResponseBodyError' })],
    ['an error body by its code', Object.assign(new Error('invalid_grant'), { code: 'OAUTH_RESPONSE_BODY_ERROR' })],
  ])('on %s answers INVALID_SSO_AUTHORIZATION_CODE', (_, error) => {
    expect(answerOf(exchangeError(error))).toEqual({
      code: 'INVALID_SSO_AUTHORIZATION_CODE',
      message: 'The identity provider did not accept the authorization code',
    });
  });

  test.each([
    ['an address outbound requests may not reach', new OutboundUnreachable('refused')],
    ['the same, wrapped by the client', Object.assign(new Error('wrapped'), { cause: new OutboundUnreachable('x') })],
    ['a timeout', Object.assign(new Error('timed out'), { code: 'OAUTH_TIMEOUT' })],
    ['an aborted request', Object.assign(new Error('aborted'), { code: 'OAUTH_ABORT' })],
    ["fetch's own failure", new TypeError('fetch failed')],
  ])('on %s answers SERVICE_UNAVAILABLE', (_, error) => {
    expect(answerOf(exchangeError(error))).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The identity provider could not be reached',
    });
  });

  test.each([
    ['a TypeError that is not a failed fetch', new TypeError('x is not a function')],
    ['an error named like a failed fetch that is no TypeError', Object.assign(new Error('fetch failed'))],
    ['a code of no known meaning', Object.assign(new Error('odd'), { code: 'OAUTH_SOMETHING_NEW' })],
    ['no error object at all', undefined],
  ])('on %s answers INTERNAL_SERVER_ERROR, keeping the cause', (_, error) => {
    const mapped = exchangeError(error);
    expect(mapped.code).toBe('INTERNAL_SERVER_ERROR');
    expect(mapped.cause).toBe(error);
  });

  test('passes on an answer the flow already chose', () => {
    const chosen = new ApiError('SKOLON_USER_NOT_TEACHER');
    expect(exchangeError(chosen)).toBe(chosen);
  });
});

describe('the OIDC client', () => {
  test('settings it cannot be built from answer INVALID_SSO_CONFIGURATION', () => {
    let thrown: unknown;
    try {
      oidcConfiguration({ ...provider, clientId: '' }, true, recordingOutbound().outbound);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(answerOf(thrown as ApiError)).toEqual({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The single sign-on settings are not usable',
    });
  });

  const exchange = (allowInsecureHttp: boolean, outbound: OutboundClient) =>
    client.authorizationCodeGrant(
      oidcConfiguration(provider, allowInsecureHttp, outbound),
      new URL('http://127.0.0.1:5173/login/sso?code=a-code&state=a-state'),
      { pkceCodeVerifier: 'v'.repeat(43), expectedState: 'a-state', idTokenExpected: true },
    );

  test('outside development it sends nothing to a provider over plain HTTP: INVALID_SSO_CONFIGURATION', async () => {
    const { outbound, asked } = recordingOutbound();
    const error = await exchange(false, outbound).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('OAUTH_HTTP_REQUEST_FORBIDDEN');
    expect(exchangeError(error).code).toBe('INVALID_SSO_CONFIGURATION');
    expect(asked).toEqual([]);
  });

  test('in development it sends the code to the token endpoint over plain HTTP, through the outbound client', async () => {
    const { outbound, asked } = recordingOutbound();
    const error = await exchange(true, outbound).catch((e: unknown) => e);
    expect(asked).toEqual([provider.tokenEndpoint]);
    expect(exchangeError(error).code).toBe('SERVICE_UNAVAILABLE');
  });
});
