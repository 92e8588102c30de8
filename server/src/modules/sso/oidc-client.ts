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

/** Which of the contract's failures a code of openid-client's is: a bad ID token, a provider not as configured, or neither. */
function failureOf(code: string | undefined): 'idToken' | 'configuration' | undefined {
  switch (code) {
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
    case 'OAUTH_KEY_SELECTION_FAILED':
    case 'OAUTH_INVALID_RESPONSE':
    case 'OAUTH_PARSE_ERROR':
      return 'idToken';
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
    case 'OAUTH_HTTP_REQUEST_FORBIDDEN':
    case 'OAUTH_REQUEST_PROTOCOL_FORBIDDEN':
    case 'OAUTH_UNSUPPORTED_OPERATION':
    case 'OAUTH_MISSING_SERVER_METADATA':
    case 'OAUTH_INVALID_SERVER_METADATA':
      return 'configuration';
  }
  return undefined;
}

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
  const failure = failureOf(e?.code);
  if (failure === 'idToken')
    return new ApiError('INVALID_SSO_ID_TOKEN', {
      message: "The identity provider's ID token is not valid",
      cause: error,
    });
  if (failure === 'configuration') {
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
