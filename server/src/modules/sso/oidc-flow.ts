// OIDC and Skolon sign-in: authorization code with PKCE (S256). The challenge stores the client's state and
// code challenge with a nonce of ours; the answer is checked against them, consumed once, and only then is the
// code exchanged (outside any database transaction: the identity provider may be slow).
import { createHash, randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { SessionCaller } from '../../shared/caller';
import { safeEqual } from '../../security/hashing';
import type { SsoDeps } from './sso.deps';
import { loadOidcClient } from '../integrations';
import type { SessionBody } from '../sessions';
import { client, exchangeError, oidcConfiguration, type OidcProvider } from './oidc-client';
import { skolonProvider, assertSkolonTeacher } from './skolon';
import { consumeChallenge, findOpenChallengeForUpdate, insertChallenge } from './sso.repository';
import type { EventClient } from '../security-events';
import {
  assertedForOwnDomain,
  challengeLifetimeMs,
  completeSsoSession,
  memberByAssertedEmail,
  ssoTargetOf,
} from './sso-sessions';

type OidcChallenge = components['schemas']['OidcChallengeRequest'];
type OidcAnswer = components['schemas']['OidcAnswer'];
export type OidcKind = 'oidc' | 'skolon';

async function providerFor(services: SsoDeps, kind: OidcKind, tenantId: number): Promise<OidcProvider> {
  const provider = kind === 'skolon' ? skolonProvider(services.config) : await loadOidcClient(services, tenantId);
  if (!provider)
    throw new ApiError('INVALID_SSO_CONFIGURATION', {
      message: `The organisation has no ${kind === 'skolon' ? 'Skolon' : 'OIDC'} settings`,
    });
  return provider;
}

export async function startOidcChallenge(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  kind: OidcKind,
  body: OidcChallenge,
) {
  const target = await ssoTargetOf(services, auth, sessionId, kind, body.redirectUri);
  const provider = await providerFor(services, kind, target.tenantId);
  const config = oidcConfiguration(provider, services.config.sso.allowInsecureHttp, services.outbound);
  const nonce = client.randomNonce();
  const now = services.now();
  await insertChallenge(
    services.db,
    {
      id: randomUUID(),
      session_id: sessionId,
      tenant_id: target.tenantId,
      kind,
      redirect_uri: body.redirectUri,
      state: body.state,
      nonce,
      code_challenge: body.codeChallenge,
      expires_at: new Date(now.getTime() + challengeLifetimeMs),
    },
    now,
  );
  const url = client.buildAuthorizationUrl(config, {
    response_type: 'code',
    redirect_uri: body.redirectUri,
    scope: 'openid email profile',
    state: body.state,
    nonce,
    code_challenge: body.codeChallenge,
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.href };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export async function verifyOidcChallenge(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  kind: OidcKind,
  answer: OidcAnswer,
  from?: EventClient,
): Promise<SessionBody> {
  const target = await ssoTargetOf(services, auth, sessionId, kind);
  const now = services.now();
  const challenge = await services.db.transaction().execute(async (trx) => {
    const row = await findOpenChallengeForUpdate(trx, sessionId, kind, answer.state);
    if (row) await consumeChallenge(trx, row.id, now);
    return row;
  });
  if (!challenge || challenge.tenant_id !== target.tenantId) {
    throw new ApiError('AUTHORIZATION_CODE_NOT_FOUND', {
      message: 'No sign-in with this state is pending for the session',
    });
  }
  if (challenge.expires_at <= now)
    throw new ApiError('SSO_CHALLENGE_EXPIRED', { message: 'The sign-in took too long; start again' });
  // Stryker disable next-line StringLiteral: equivalent; no S256 digest (43 base64url characters) equals either text.
  if (!safeEqual(s256(answer.codeVerifier), challenge.code_challenge ?? '')) {
    throw new ApiError('INVALID_SSO_AUTHORIZATION_CODE', {
      message: 'The code verifier does not match the code challenge',
    });
  }

  const provider = await providerFor(services, kind, target.tenantId);
  const config = oidcConfiguration(provider, services.config.sso.allowInsecureHttp, services.outbound);
  const callback = new URL(challenge.redirect_uri);
  callback.searchParams.set('code', answer.authorizationCode);
  callback.searchParams.set('state', answer.state);
  let email: string;
  try {
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: answer.codeVerifier,
      expectedState: challenge.state ?? undefined,
      expectedNonce: challenge.nonce ?? undefined,
      // Stryker disable next-line BooleanLiteral: equivalent; every challenge keeps a nonce, and openid-client expects an
      // ID token whenever a nonce is expected. Said here as well, so no change to the nonce can drop the check.
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    // Stryker disable next-line all: unreachable; with idTokenExpected openid-client refuses a token response without an
    // ID token first (OAUTH_INVALID_RESPONSE, which exchangeError answers with the same code).
    if (!claims) throw new ApiError('INVALID_SSO_ID_TOKEN', { message: 'The identity provider sent no ID token' });
    if (kind === 'skolon') {
      const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      assertSkolonTeacher(userInfo);
      // Stryker disable next-line StringLiteral: equivalent; any text without '@' is refused below with the same answer.
      email = String(userInfo.email ?? claims.email ?? '');
    } else {
      // Stryker disable next-line StringLiteral: equivalent; any text without '@' is refused below with the same answer.
      email = typeof claims.email === 'string' ? claims.email : '';
    }
    // Stryker disable next-line StringLiteral: equivalent; any text without '@' is refused below with the same answer.
    if (claims.email_verified === false) email = '';
  } catch (error) {
    const mapped = exchangeError(error);
    // Operators need the provider's reason; it names no secret (codes, verifiers and tokens are not in it).
    const cause = error as { code?: string; error?: string; message?: string };
    services.logger.warn(
      // Stryker disable next-line OptionalChaining: equivalent; what is caught is never null or undefined (openid-client
      // wraps any failure in an error object of its own, and the flow throws ApiErrors).
      { tenantId: target.tenantId, kind, reason: cause?.error ?? cause?.code, detail: cause?.message },
      `${kind} sign-in refused: ${mapped.code}`,
    );
    throw mapped;
  }
  if (!email.includes('@'))
    throw new ApiError('INVALID_SSO_ID_TOKEN', { message: 'The identity provider did not assert a verified email' });
  if (!(await assertedForOwnDomain(services, target, email)))
    throw new ApiError('INVALID_SSO_ID_TOKEN', {
      message: "The identity provider asserted an address outside the organisation's single sign-on domains",
    });
  const member = await memberByAssertedEmail(services, target.tenantId, email);
  if (!member)
    throw new ApiError('INVALID_CREDENTIALS', {
      message: 'No account of this organisation matches the signed-in identity',
    });
  return completeSsoSession(services, sessionId, kind, member.id, from);
}
