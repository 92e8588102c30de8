import type { components } from '../../../../generated/core-api';
import type { SessionCaller } from '../../shared/caller';
import type { PartialHandlers } from '../../http/operations';
import { policies } from '../../security/throttle';
import { clientKey } from '../../shared/client-address';
import type { SsoDeps } from './sso.deps';
import type { SsoSignIn } from '../sessions';
import type { SessionBody } from '../sessions';
import type { EventClient } from '../security-events';
import { startOidcChallenge, verifyOidcChallenge } from './oidc-flow';
import { consumeSamlResponse, startSamlChallenge, verifySamlCode } from './saml-flow';
import { spMetadata } from './saml-sp';
import { createSsoSession, probeIdpDomain } from './sso-sessions';

type ChallengeBody = components['schemas']['CreateChallengeRequest'];
type AnswerBody = components['schemas']['VerifyChallengeRequest'];

/** The SSO branches of `createSessionChallenge`; undefined when the body is not an SSO challenge. */
export async function createSsoChallenge(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  body: ChallengeBody,
) {
  await services.throttle.consume([`sso:challenge:${sessionId}`, { limit: 30, windowSeconds: 3600 }]);
  if ('oidc' in body) return startOidcChallenge(services, auth, sessionId, 'oidc', body.oidc);
  if ('skolon' in body) return startOidcChallenge(services, auth, sessionId, 'skolon', body.skolon);
  if ('saml' in body) return startSamlChallenge(services, auth, sessionId, body.saml.redirectUri);
  return undefined;
}

/** The SSO branches of `verifySessionChallenge`; undefined when the body is not an SSO answer. */
export async function verifySsoChallenge(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  body: AnswerBody,
  client?: EventClient,
): Promise<SessionBody | undefined> {
  if ('oidc' in body) return verifyOidcChallenge(services, auth, sessionId, 'oidc', body.oidc, client);
  if ('skolon' in body) return verifyOidcChallenge(services, auth, sessionId, 'skolon', body.skolon, client);
  if ('saml' in body) return verifySamlCode(services, auth, sessionId, body.saml.code, client);
  return undefined;
}

/** This module's sign-in, for the sessions module's handlers (registered by the composition root). */
export const ssoSignIn: SsoSignIn<SsoDeps> = {
  createSession: createSsoSession,
  createChallenge: createSsoChallenge,
  verifyChallenge: verifySsoChallenge,
};

export const ssoHandlers = (
  services: SsoDeps,
): PartialHandlers<'probeIdpDomain' | 'getSamlServiceProviderMetadata' | 'consumeSamlAssertion'> => ({
  async probeIdpDomain({ path, req }) {
    await services.throttle.consume([
      `probe:idp:address:${clientKey(req, services.config.runtime.clientIpv6Prefix)}`,
      policies.probePerAddress,
    ]);
    return { status: 200, body: await probeIdpDomain(services, path.idpDomain) };
  },

  async getSamlServiceProviderMetadata() {
    return { status: 200, contentType: 'application/samlmetadata+xml', body: spMetadata(services.config) };
  },

  async consumeSamlAssertion({ body }) {
    return { status: 302, headers: { Location: await consumeSamlResponse(services, body) } };
  },
});
