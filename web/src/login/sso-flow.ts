/*
 * Single sign-on, as plain TypeScript (loaded only when the user asks for SSO): find the region whose tenant owns
 * the email's domain, open an SSO session there and send the browser to the identity provider (OIDC and Skolon
 * with PKCE S256 and a state; SAML with an AuthnRequest); then, on /login/sso, check what came back against this
 * tab's attempt, answer the challenge, and continue exactly like a password sign-in.
 */
import { ApiFailure, latestUnavailable } from '../api/api-failure';
import { clientFor } from '../api/client';
import type { SessionFactors } from '../api/create-session';
import { type SsoKind, createSsoSession, probeIdpDomain, requestAuthorizationUrl, verifySso } from '../api/sso';
import type { RegionTarget } from '../config/config';
import { isProbedFor, isRegionCode } from '../config/regions';
import { codeChallengeS256, createCodeVerifier, createState } from './pkce';
import type { AvailableRegion } from './probe-regions';
import { type NextStep, continueWithSession } from './sign-in';
import { storeRegion } from './sign-in-storage';
import { type SsoAttempt, storeSsoAttempt, takeSsoAttempt } from './sso-storage';

/** A region where the email's domain signs in with SSO, and with which protocol. */
export interface SsoTarget extends AvailableRegion {
  kind: SsoKind;
}

/** The errors the SAML assertion consumer service puts in the redirect instead of a code. */
export const SAML_ERRORS = ['saml_validation_failed', 'user_not_found', 'unauthorized_organization'] as const;

export type SsoProblem =
  /** No region the client signs in at has SSO for the domain. */
  | 'NO_SSO_FOR_DOMAIN'
  /** /login/sso was reached without an attempt of this tab (another tab, a reload, a bookmark). */
  | 'SSO_NOT_STARTED'
  /** The answer does not belong to this tab's attempt (state or session differs, or no code). */
  | 'SSO_STATE_MISMATCH'
  /** The identity provider answered an OAuth error (the user cancelled, access denied…). */
  | 'SSO_REFUSED'
  | (typeof SAML_ERRORS)[number];

/** A single sign-on that cannot go on, for a reason found in the browser (server refusals are ApiFailures). */
export class SsoFailure extends Error {
  constructor(readonly problem: SsoProblem) {
    super(problem);
    this.name = 'SsoFailure';
  }
}

const KINDS: readonly SsoKind[] = ['oidc', 'saml', 'skolon'];

/** The domain of an email address, as the server compares it (lowercase, after the last @). */
export function emailDomain(email: string): string {
  const trimmed = email.trim().toLowerCase();
  return trimmed.slice(trimmed.lastIndexOf('@') + 1);
}

/**
 * Asks every region the client signs in at (not Brazil for the academy), in parallel, whether the email's domain
 * signs in with SSO there. The policy is the password probe's: a region that has the domain wins over another's
 * failure; with none, rate limiting first (the latest wait), then any other failure; else an empty list.
 */
export async function probeSsoRegions({
  email,
  clientType,
  targets,
}: {
  email: string;
  clientType: string | null;
  targets: readonly RegionTarget[];
}): Promise<SsoTarget[]> {
  const domain = emailDomain(email);
  const probed = targets.filter((target) => isProbedFor(target.region, clientType));
  const outcomes = await Promise.allSettled(
    probed.map(async (target) => {
      const result = await probeIdpDomain(clientFor(target.baseUrl), domain);
      const kindOk = result.available ? KINDS.includes(result.type as SsoKind) : true;
      if (!isRegionCode(result.region) || typeof result.available !== 'boolean' || !kindOk)
        throw new ApiFailure('UNEXPECTED_RESPONSE', 200);
      return {
        region: result.region,
        baseUrl: target.baseUrl,
        available: result.available,
        kind: result.type as SsoKind,
      };
    }),
  );
  const found: SsoTarget[] = [];
  const failures: ApiFailure[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected')
      failures.push(outcome.reason instanceof ApiFailure ? outcome.reason : new ApiFailure('NETWORK_ERROR', 0));
    else if (outcome.value.available && !found.some((known) => known.region === outcome.value.region)) {
      found.push({ region: outcome.value.region, baseUrl: outcome.value.baseUrl, kind: outcome.value.kind });
    }
  }
  if (found.length > 0) return found;
  const rateLimited = failures.filter((failure) => failure.code === 'TOO_MANY_REQUESTS');
  if (rateLimited.length > 0) throw latestUnavailable(rateLimited);
  if (failures.length > 0) throw failures[0];
  return found;
}

/** The SSO factor the session waits for (the server's word wins over the probe's). */
function unverifiedSsoKind(factors: SessionFactors): SsoKind | undefined {
  return KINDS.find((kind) => (factors as Record<string, unknown>)[kind] === 'unverified');
}

/** Where the identity provider sends the browser back: this app's /login/sso (on the region's allow-list). */
export function ssoRedirectUri(origin: string = window.location.origin): string {
  return `${origin}/login/sso`;
}

/**
 * Opens the SSO session in the target region and asks for the identity provider's URL, remembering in this tab
 * what the answer must match (PKCE verifier, state, session). Answers the URL to send the browser to.
 */
export async function startSso(
  target: SsoTarget,
  email: string,
  redirectUri: string = ssoRedirectUri(),
): Promise<string> {
  const client = clientFor(target.baseUrl);
  const session = await createSsoSession(client, email.trim());
  const kind = unverifiedSsoKind(session.factors) ?? target.kind;
  const attempt: SsoAttempt = {
    kind,
    region: target.region,
    baseUrl: target.baseUrl,
    session: { id: session.id, accessToken: session.accessToken },
  };
  let authorizationUrl: string;
  if (kind === 'saml') {
    authorizationUrl = await requestAuthorizationUrl(client, session, { saml: { redirectUri } });
  } else {
    attempt.codeVerifier = createCodeVerifier();
    attempt.state = createState();
    const challenge = {
      codeChallenge: await codeChallengeS256(attempt.codeVerifier),
      codeChallengeMethod: 'S256' as const,
      redirectUri,
      state: attempt.state,
    };
    authorizationUrl = await requestAuthorizationUrl(
      client,
      session,
      kind === 'oidc' ? { oidc: challenge } : { skolon: challenge },
    );
  }
  storeSsoAttempt(attempt);
  storeRegion(target.region);
  return authorizationUrl;
}

/**
 * On /login/sso: checks the identity provider's answer (OIDC: `code` and `state`; SAML: `sessionId` and `code`;
 * or `error`) against this tab's attempt, which is used up either way, answers the challenge, and says where the
 * browser goes next, exactly as after a password sign-in.
 */
export async function finishSso(search: URLSearchParams, allowList: readonly string[]): Promise<NextStep> {
  const attempt = takeSsoAttempt();
  const error = search.get('error');
  if (error !== null)
    throw new SsoFailure((SAML_ERRORS as readonly string[]).includes(error) ? (error as SsoProblem) : 'SSO_REFUSED');
  if (!attempt) throw new SsoFailure('SSO_NOT_STARTED');
  const code = search.get('code');
  if (!code) throw new SsoFailure('SSO_STATE_MISMATCH');
  const client = clientFor(attempt.baseUrl);
  let session;
  if (attempt.kind === 'saml') {
    if (search.get('sessionId') !== attempt.session.id) throw new SsoFailure('SSO_STATE_MISMATCH');
    session = await verifySso(client, attempt.session, { saml: { code } });
  } else {
    const state = search.get('state');
    if (state === null || state !== attempt.state) throw new SsoFailure('SSO_STATE_MISMATCH');
    const answer = { authorizationCode: code, codeVerifier: attempt.codeVerifier ?? '', state };
    session = await verifySso(client, attempt.session, attempt.kind === 'oidc' ? { oidc: answer } : { skolon: answer });
  }
  return continueWithSession(session, attempt, allowList);
}
