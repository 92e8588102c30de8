// openid-client configured from stored settings (no discovery: the tenant gives every endpoint). The client
// authenticates with its secret (client_secret_basic), always sends PKCE (S256), and checks the ID token's JWS
// signature against the provider's JWKS as well as issuer, audience, nonce and expiry.
import * as client from 'openid-client';
import { ApiError } from '../../errors';
import { OutboundUnreachable, type OutboundClient } from '../../security/outbound';

export interface OidcProvider {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userInfoEndpoint?: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Every request to the provider (token, JWKS, userinfo) goes through `outbound`: internal addresses are refused
 * after DNS resolution, and every failure to get an answer is one error (security/outbound.ts).
 */
export function oidcConfiguration(
  provider: OidcProvider,
  allowInsecureHttp: boolean,
  outbound: OutboundClient,
): client.Configuration {
  let config: client.Configuration;
  try {
    config = new client.Configuration(
      {
        issuer: provider.issuer,
        authorization_endpoint: provider.authorizationEndpoint,
        token_endpoint: provider.tokenEndpoint,
        jwks_uri: provider.jwksUri,
        // Asymmetric signatures only: the JWKS decides the key, never the client secret.
        id_token_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        ...(provider.userInfoEndpoint ? { userinfo_endpoint: provider.userInfoEndpoint } : {}),
      },
      provider.clientId,
      undefined,
      client.ClientSecretBasic(provider.clientSecret),
    );
  } catch (cause) {
    throw new ApiError('INVALID_SSO_CONFIGURATION', { message: 'The single sign-on settings are not usable', cause });
  }
  config.timeout = 10;
  config[client.customFetch] = (url, options) => outbound.fetch(url, options as RequestInit);
  if (allowInsecureHttp) client.allowInsecureRequests(config);
  client.enableNonRepudiationChecks(config);
  return config;
}

const idTokenCodes = new Set([
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_PARSE_ERROR',
]);
const configurationCodes = new Set([
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_HTTP_REQUEST_FORBIDDEN',
  'OAUTH_REQUEST_PROTOCOL_FORBIDDEN',
  'OAUTH_UNSUPPORTED_OPERATION',
  'OAUTH_MISSING_SERVER_METADATA',
  'OAUTH_INVALID_SERVER_METADATA',
]);

/** Maps what openid-client throws during the code exchange to the contract's error codes. */
export function exchangeError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e?.name === 'ResponseBodyError' || e?.code === 'OAUTH_RESPONSE_BODY_ERROR') {
    return new ApiError('INVALID_SSO_AUTHORIZATION_CODE', {
      message: 'The identity provider did not accept the authorization code',
      cause: error,
    });
  }
  if (e?.code && idTokenCodes.has(e.code))
    return new ApiError('INVALID_SSO_ID_TOKEN', {
      message: "The identity provider's ID token is not valid",
      cause: error,
    });
  if (e?.code && configurationCodes.has(e.code)) {
    return new ApiError('INVALID_SSO_CONFIGURATION', {
      message: 'The identity provider did not answer as configured',
      cause: error,
    });
  }
  if (
    error instanceof OutboundUnreachable ||
    e?.cause instanceof OutboundUnreachable ||
    e?.code === 'OAUTH_TIMEOUT' ||
    e?.code === 'OAUTH_ABORT' ||
    (e?.name === 'TypeError' && e.message === 'fetch failed')
  ) {
    return new ApiError('SERVICE_UNAVAILABLE', { message: 'The identity provider could not be reached', cause: error });
  }
  return new ApiError('INTERNAL_SERVER_ERROR', { cause: error });
}

export { client };
