// The shared part of every SSO sign-in: the `sso` grant picks the tenant by the email's domain and opens a
// session whose SSO factor is unverified; a challenge belongs to that session; a verified answer binds the
// session to the user the identity provider asserted (looked up by email inside the same tenant) and issues
// fresh tokens.
import { ApiError } from '../../errors';
import type { AuthContext } from '../../http/auth';
import type { SsoKind } from '../../db/types';
import { emailHash } from '../../security/hashing';
import type { Services } from '../../services';
import { findSessionForUpdate, supersedeRefreshTokens } from '../sessions/sessions.repository';
import { assertLoginAllowed, recordLoginFailure, startSession } from '../sessions/sessions.service';
import { issueTokens, type SessionBody } from '../sessions/tokens';
import { bindSession, findActiveMember, findSsoDomain, findUserEmail } from './sso.repository';
import { isAllowedSsoRedirect } from './redirect-uri';

export const ssoKinds = ['oidc', 'saml', 'skolon'] as const;
export const challengeLifetimeMs = 10 * 60_000;

const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';

export async function probeIdpDomain(services: Services, domain: string) {
  const row = await findSsoDomain(services.db, domain);
  return { region: services.config.region, baseUrl: services.config.publicBaseUrl, available: row !== undefined, type: row?.kind ?? null };
}

/** `POST /sessions { grantType: sso, email }`. Unknown members count as failed logins, like wrong passwords. */
export async function createSsoSession(services: Services, input: { email: string; ip: string }): Promise<SessionBody> {
  const hash = emailHash(input.email);
  await assertLoginAllowed(services, hash, input.ip);
  const domain = await findSsoDomain(services.db, domainOf(input.email));
  if (!domain) throw new ApiError('INVALID_SSO_CONFIGURATION', { message: 'This email domain does not sign in with single sign-on here' });
  const member = await findActiveMember(services.db, domain.tenant_id, hash);
  if (!member?.active) {
    await recordLoginFailure(services, hash, input.ip);
    throw new ApiError('INVALID_CREDENTIALS', { message: 'No account for this email signs in with single sign-on here' });
  }
  return startSession(services, member.id, { [domain.kind]: 'unverified' });
}

export interface SsoTarget {
  tenantId: number;
  kind: SsoKind;
}

/**
 * The caller's own session, still waiting for its `kind` factor, and the tenant its user's domain signs in at.
 * The redirect URI must be one of the sign-in app's pages.
 */
export async function ssoTargetOf(services: Services, auth: AuthContext, sessionId: string, kind: SsoKind, redirectUri?: string): Promise<SsoTarget> {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  if (auth.factors[kind] === 'verified') throw new ApiError('AUTHORIZATION_CODE_NOT_FOUND', { message: `This session has already signed in with ${kind}` });
  if (auth.factors[kind] !== 'unverified') {
    throw new ApiError('INVALID_SSO_CONFIGURATION', { message: `This session does not sign in with ${kind}` });
  }
  const user = await findUserEmail(services.db, auth.userId);
  const domain = user && (await findSsoDomain(services.db, domainOf(user.email)));
  if (!domain || domain.kind !== kind) throw new ApiError('INVALID_SSO_CONFIGURATION', { message: `The organisation does not sign in with ${kind}` });
  if (redirectUri !== undefined && !isAllowedSsoRedirect(redirectUri, services.config.redirectAllowList)) {
    throw new ApiError('INVALID_REDIRECT_URI', { message: 'The redirect URI is not allowed' });
  }
  return { tenantId: domain.tenant_id, kind };
}

/** The user the identity provider asserted, if an active member of the tenant. */
export async function memberByAssertedEmail(services: Services, tenantId: number, email: string) {
  const member = await findActiveMember(services.db, tenantId, emailHash(email));
  return member?.active ? member : undefined;
}

/** Verifies the factor: the session now belongs to the asserted user, with fresh tokens. */
export async function completeSsoSession(services: Services, sessionId: string, kind: SsoKind, userId: number): Promise<SessionBody> {
  const now = services.now();
  return services.db.transaction().execute(async (trx) => {
    const session = await findSessionForUpdate(trx, sessionId);
    if (!session || session.revoked_at || session.expires_at <= now) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
    const factors = { [kind]: 'verified' as const };
    await bindSession(trx, sessionId, userId, factors, now);
    await supersedeRefreshTokens(trx, sessionId, now);
    return issueTokens(services, trx, { id: sessionId, userId, factors });
  });
}
