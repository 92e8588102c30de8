import type { components } from '../../../generated/core-api';
import { ApiFailure } from './api-failure';
import { call } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';
import type { Session } from './create-session';

export type IdpDomainProbeResult = components['schemas']['IdpDomainProbeResult'];
export type SsoKind = 'oidc' | 'saml' | 'skolon';
type ChallengeBody = Extract<
  components['schemas']['CreateChallengeRequest'],
  { oidc: unknown } | { saml: unknown } | { skolon: unknown }
>;
type AnswerBody = Extract<
  components['schemas']['VerifyChallengeRequest'],
  { oidc: unknown } | { saml: unknown } | { skolon: unknown }
>;

interface SessionRef {
  id: string;
  accessToken: string;
}

const bearer = (session: SessionRef) => ({ Authorization: `Bearer ${session.accessToken}` });

/** Whether users of the email domain sign in with single sign-on in this region, and with which protocol. */
export async function probeIdpDomain(client: CoreApiClient, idpDomain: string): Promise<IdpDomainProbeResult> {
  const { data } = await call(() =>
    client.GET('/probes/idpDomain/{idpDomain}', { params: { header: VERSION_HEADER, path: { idpDomain } } }),
  );
  return data;
}

/** `grantType: sso`: a session whose SSO factor is unverified, in the tenant the email's domain belongs to. */
export async function createSsoSession(client: CoreApiClient, email: string): Promise<Session> {
  const { data } = await call(() =>
    client.POST('/sessions', { params: { header: VERSION_HEADER }, body: { grantType: 'sso', email } }),
  );
  return data;
}

/** Starts the round trip at the identity provider; answers where to send the browser. */
export async function requestAuthorizationUrl(
  client: CoreApiClient,
  session: SessionRef,
  body: ChallengeBody,
): Promise<string> {
  const { data } = await call(() =>
    client.POST('/sessions/{id}/challenges', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body,
    }),
  );
  if (!('authorizationUrl' in data) || !/^https?:\/\//i.test(data.authorizationUrl))
    throw new ApiFailure('UNEXPECTED_RESPONSE', 201);
  return data.authorizationUrl;
}

/** Answers the SSO challenge with what the identity provider sent back; the verified session has fresh tokens. */
export async function verifySso(client: CoreApiClient, session: SessionRef, body: AnswerBody): Promise<Session> {
  const { data } = await call(() =>
    client.PATCH('/sessions/{id}', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body,
    }),
  );
  return data;
}
