// This region as a SAML 2.0 service provider: its entity id and assertion consumer service, its metadata, and
// a node-saml instance per sign-in that trusts only the tenant's identity provider certificates and accepts
// only the response to the one AuthnRequest of that sign-in.
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type CacheProvider } from '@node-saml/node-saml';
import type { Config } from '../../config';

export const spEntityId = (config: Config) => `${config.publicBaseUrl}/core/saml/sp`;
export const acsUrl = (config: Config) => `${config.publicBaseUrl}/core/saml/acs`;

/** What this region says of itself as a service provider, in its metadata and in each AuthnRequest. */
const spIdentity = (config: Config) => ({
  issuer: spEntityId(config),
  callbackUrl: acsUrl(config),
  identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
});

export function spMetadata(config: Config): string {
  return generateServiceProviderMetadata({
    ...spIdentity(config),
    wantAssertionsSigned: true,
    publicCerts: config.sso.samlSpCertificate,
    privateKey: config.sso.samlSpPrivateKey ?? undefined,
    signatureAlgorithm: 'sha256',
  });
}

/**
 * InResponseTo is checked against the one request id this sign-in sent (our own table keeps the state and its
 * expiry); node-saml reads the value as the request's creation time.
 */
function oneRequestCache(requestId: string): CacheProvider {
  const issuedAt = new Date().toISOString();
  return {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    // Stryker disable next-line ConditionalExpression: equivalent; node-saml asks only for the response's InResponseTo, by
    // which saml-flow.ts found this sign-in, and compares the assertion's own InResponseTo with it.
    getAsync: async (key) => (key === requestId ? issuedAt : null),
    removeAsync: async (key) => key,
  };
}

export interface IdpSettings {
  entry_point: string;
  idp_issuer: string | null;
  idp_certificates: string[];
}

export function samlFor(config: Config, idp: IdpSettings, requestId: string, maxAgeMs: number): SAML {
  return new SAML({
    ...spIdentity(config),
    audience: spEntityId(config),
    entryPoint: idp.entry_point,
    idpIssuer: idp.idp_issuer ?? undefined,
    idpCert: idp.idp_certificates,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: oneRequestCache(requestId),
    requestIdExpirationPeriodMs: maxAgeMs,
    maxAssertionAgeMs: maxAgeMs,
    acceptedClockSkewMs: 60_000,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => requestId,
    ...(config.sso.samlSpPrivateKey
      ? { privateKey: config.sso.samlSpPrivateKey, signatureAlgorithm: 'sha256' as const }
      : {}),
  });
}
