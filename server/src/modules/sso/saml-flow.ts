// SAML sign-in: the challenge sends an AuthnRequest (its id is kept with the challenge); the assertion consumer
// service accepts the signed answer to exactly that request once, and hands the browser a one-time code for
// the session; `PATCH /sessions/{id} { saml: { code } }` turns the code into the verified factor.
import { randomBytes, randomUUID } from 'node:crypto';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml';
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { SessionCaller } from '../../shared/caller';
import { emailHash, keyedHash, randomToken } from '../../security/hashing';
import type { SsoDeps } from './sso.deps';
import type { SessionBody } from '../sessions';
import { samlFor } from './saml-sp';
import { isAllowedSsoRedirect } from './redirect-uri';
import type { EventClient } from '../security-events';
import {
  answerSamlChallenge,
  consumeChallenge,
  findChallengeBySamlRequestId,
  findSamlChallengeByCodeForUpdate,
  findSamlSettings,
  findUserIdByEmailHash,
  insertChallenge,
  recordSamlAssertion,
  setSamlCode,
} from './sso.repository';
import {
  assertedForOwnDomain,
  challengeLifetimeMs,
  completeSsoSession,
  memberByAssertedEmail,
  ssoTargetOf,
} from './sso-sessions';

type AcsForm = components['schemas']['SamlAcsForm'];
export type AcsError = 'saml_validation_failed' | 'user_not_found' | 'unauthorized_organization';

const codeLifetimeMs = 2 * 60_000;
const hashCode = (services: SsoDeps, code: string) => keyedHash(services.secretKey, `saml-code\0${code}`);

export async function startSamlChallenge(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  redirectUri: string,
) {
  const target = await ssoTargetOf(services, auth, sessionId, 'saml', redirectUri);
  const settings = await findSamlSettings(services.db, target.tenantId);
  if (!settings) throw new ApiError('INVALID_SSO_CONFIGURATION', { message: 'The organisation has no SAML settings' });
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const now = services.now();
  await insertChallenge(
    services.db,
    {
      id: randomUUID(),
      session_id: sessionId,
      tenant_id: target.tenantId,
      kind: 'saml',
      redirect_uri: redirectUri,
      saml_request_id: requestId,
      expires_at: new Date(now.getTime() + challengeLifetimeMs),
    },
    now,
  );
  try {
    const authorizationUrl = await samlFor(
      services.config,
      settings,
      requestId,
      challengeLifetimeMs,
    ).getAuthorizeUrlAsync(redirectUri, undefined, {});
    return { authorizationUrl };
  } catch (cause) {
    throw new ApiError('INVALID_SSO_CONFIGURATION', { message: 'The SAML settings are not usable', cause });
  }
}

/** The request id the (not yet verified) response claims to answer: only used to find the sign-in. */
async function inResponseToOf(samlResponse: string): Promise<string | null> {
  const doc = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
  const nodes = xpath.selectAttributes(doc, "/*[local-name()='Response']/@InResponseTo");
  // Stryker disable next-line ConditionalExpression: equivalent; the parser refuses an attribute named twice, so there is
  // one node or none, and reading the first of none throws, which the caller takes as null as well.
  return nodes.length === 1 ? nodes[0].nodeValue : null;
}

function assertedEmail(profile: Record<string, unknown>): string | null {
  const candidates = [
    profile.email,
    profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
    profile.nameID,
  ];
  const email = candidates.find((c): c is string => typeof c === 'string' && /^[^@\s]+@[^@\s]+$/.test(c));
  return email ?? null;
}

/** The assertion consumer service: answers where to send the browser. */
export async function consumeSamlResponse(services: SsoDeps, form: AcsForm): Promise<string> {
  const relay = form.RelayState;
  if (relay === undefined || relay === '') {
    // No target named: the browser still gets a page, the sign-in app's SSO page with the error (never JSON).
    services.logger.warn({ reason: 'no RelayState' }, 'SAML response refused');
    const page = new URL('/login/sso', services.config.signInAppUrl);
    page.searchParams.set('error', 'saml_validation_failed');
    return page.href;
  }
  if (!isAllowedSsoRedirect(relay, services.config.redirectAllowList)) {
    throw new ApiError('BAD_REQUEST', {
      message: 'RelayState is not an allowed target',
      issues: [{ where: 'body', path: '/RelayState', message: 'is not an allowed redirect target' }],
    });
  }
  const to = (params: Record<string, string>) => {
    const url = new URL(relay);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.href;
  };
  const failed = (reason: string, error: AcsError = 'saml_validation_failed', cause?: unknown) => {
    services.logger.warn({ reason, err: cause instanceof Error ? cause.message : undefined }, 'SAML response refused');
    return to({ error });
  };

  const now = services.now();
  // Stryker disable next-line ArrowFunction: equivalent; an unreadable response answers no request, and null and
  // undefined alike find no sign-in on the next line.
  const requestId = await inResponseToOf(form.SAMLResponse).catch(() => null);
  const challenge = requestId ? await findChallengeBySamlRequestId(services.db, requestId) : undefined;
  if (!challenge || challenge.redirect_uri !== relay) return failed('answers no sign-in of ours');
  if (challenge.expires_at <= now) return failed('the sign-in expired');
  const settings = await findSamlSettings(services.db, challenge.tenant_id);
  if (!settings) return failed('the organisation has no SAML settings');

  let profile: Record<string, unknown> & { getAssertion?: () => { Assertion?: { $?: { ID?: string } } } | undefined };
  try {
    const result = await samlFor(
      services.config,
      settings,
      challenge.saml_request_id!,
      challengeLifetimeMs,
    ).validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    // A Response without an assertion (the IdP's NoPassive answer, signed) comes back with no profile.
    if (!result.profile || result.loggedOut) return failed('no assertion');
    profile = result.profile as never;
  } catch (error) {
    return failed('not valid', 'saml_validation_failed', error);
  }
  const assertionId = profile.getAssertion?.()?.Assertion?.$?.ID;
  // Whether the sign-in was answered already is decided here alone, atomically: a replay and a race alike.
  if (!(await answerSamlChallenge(services.db, challenge.id, challenge.tenant_id, now)))
    return failed('the sign-in was already answered');
  const kept = new Date(now.getTime() + 2 * challengeLifetimeMs);
  if (
    typeof assertionId !== 'string' ||
    !(await recordSamlAssertion(services.db, challenge.tenant_id, assertionId, kept, now))
  ) {
    return failed('the assertion was used before');
  }

  const email = assertedEmail(profile);
  if (email && !(await assertedForOwnDomain(services, { tenantId: challenge.tenant_id, kind: 'saml' }, email)))
    return failed('the asserted address is not at a domain of the organisation');
  if (!email || !(await findUserIdByEmailHash(services.db, emailHash(email))))
    return failed('no such user', 'user_not_found');
  const member = await memberByAssertedEmail(services, challenge.tenant_id, email);
  if (!member) return failed('not a member of the organisation', 'unauthorized_organization');
  const code = randomToken(32);
  await setSamlCode(services.db, challenge.id, {
    userId: member.id,
    codeHash: hashCode(services, code),
    codeExpiresAt: new Date(now.getTime() + codeLifetimeMs),
  });
  return to({ sessionId: challenge.session_id, code });
}

export async function verifySamlCode(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  code: string,
  client?: EventClient,
): Promise<SessionBody> {
  const target = await ssoTargetOf(services, auth, sessionId, 'saml');
  const now = services.now();
  const challenge = await services.db.transaction().execute(async (trx) => {
    const row = await findSamlChallengeByCodeForUpdate(trx, sessionId, hashCode(services, code));
    if (row) await consumeChallenge(trx, row.id, now);
    return row;
  });
  if (!challenge || challenge.tenant_id !== target.tenantId || !challenge.asserted_user_id) {
    throw new ApiError('AUTHORIZATION_CODE_NOT_FOUND', {
      message: 'No SAML sign-in with this code is pending for the session',
    });
  }
  if (!challenge.code_expires_at || challenge.code_expires_at <= now)
    throw new ApiError('SSO_CHALLENGE_EXPIRED', { message: 'The sign-in took too long; start again' });
  return completeSsoSession(services, sessionId, 'saml', challenge.asserted_user_id, client);
}
