// The shared part of every SSO sign-in: the `sso` grant picks the tenant by the email's domain and opens a
// session for that tenant whose SSO factor is unverified, bound to no user (the grant does not look at who the
// email belongs to, so members and non-members of the domain's tenant get the same answer from the same
// statements); a challenge belongs to that session; a verified answer binds the session to the user the identity
// provider asserted (looked up by email inside the same tenant) and issues fresh tokens. A domain's identity
// provider speaks for that domain's addresses only: an asserted address must be at a domain registered to the
// session's tenant for the same kind of sign-in, or the answer is refused before any account is looked up.
import { ApiError } from '../../errors';
import type { SessionCaller } from '../../shared/caller';
import { addressKey, type SignInClient } from '../../shared/client-address';
import type { SsoKind } from '../../db/column-types';
import { emailHash } from '../../security/hashing';
import { policies } from '../../security/throttle';
import type { SsoDeps } from './sso.deps';
import {
  bindSsoSession,
  factorsAfterAnswer,
  holdSession,
  settleAndIssueTokens,
  signInSucceeded,
  startSsoSession,
  type SessionBody,
} from '../sessions';
import type { EventClient } from '../security-events';
import { findActiveMember, findSsoDomain } from './sso.repository';
import { isAllowedSsoRedirect } from './redirect-uri';

export const challengeLifetimeMs = 10 * 60_000;

// Stryker disable next-line StringLiteral: unreachable; split always answers at least one part, so pop() never fails.
const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';

export async function probeIdpDomain(services: SsoDeps, domain: string) {
  const row = await findSsoDomain(services.db, domain);
  return {
    region: services.config.region,
    baseUrl: services.config.publicBaseUrl,
    available: row !== undefined,
    type: row?.kind ?? null,
  };
}

/**
 * `POST /sessions { grantType: sso, email }`: a pending session for the tenant of the email's domain, the same for
 * any address at the domain. Nothing is checked, so no lockout moves; each grant counts towards its address's
 * rate limit, never given back.
 */
export async function createSsoSession(
  services: SsoDeps,
  input: { email: string; ip: string; client?: SignInClient },
): Promise<SessionBody> {
  const client = addressKey(input.ip, services.config.runtime.clientIpv6Prefix);
  await services.throttle.consume([`sso:grant:address:${client}`, policies.ssoGrantPerAddress]);
  const domain = await findSsoDomain(services.db, domainOf(input.email));
  if (!domain)
    throw new ApiError('INVALID_SSO_CONFIGURATION', {
      message: 'This email domain does not sign in with single sign-on here',
    });
  return startSsoSession(services, domain.tenant_id, { [domain.kind]: 'unverified' }, input.client);
}

export interface SsoTarget {
  tenantId: number;
  kind: SsoKind;
}

/**
 * The caller's own session, still waiting for its `kind` factor, and the tenant it was opened for (the domain's
 * at the grant). The redirect URI must be one of the sign-in app's pages.
 */
export async function ssoTargetOf(
  services: SsoDeps,
  auth: SessionCaller,
  sessionId: string,
  kind: SsoKind,
  redirectUri?: string,
): Promise<SsoTarget> {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  if (auth.factors[kind] === 'verified')
    throw new ApiError('AUTHORIZATION_CODE_NOT_FOUND', { message: `This session has already signed in with ${kind}` });
  if (auth.factors[kind] !== 'unverified' || auth.ssoTenantId === null) {
    throw new ApiError('INVALID_SSO_CONFIGURATION', { message: `This session does not sign in with ${kind}` });
  }
  if (redirectUri !== undefined && !isAllowedSsoRedirect(redirectUri, services.config.redirectAllowList)) {
    throw new ApiError('INVALID_REDIRECT_URI', { message: 'The redirect URI is not allowed' });
  }
  return { tenantId: auth.ssoTenantId, kind };
}

/**
 * Whether the identity provider may speak for this address: its domain (after the last `@`, case-insensitive, no
 * subdomains) is registered to the sign-in's tenant and kind. Refusals are logged with the domain, never the address.
 */
export async function assertedForOwnDomain(services: SsoDeps, target: SsoTarget, email: string): Promise<boolean> {
  const domain = domainOf(email);
  const row = await findSsoDomain(services.db, domain);
  if (row?.tenant_id === target.tenantId && row.kind === target.kind) return true;
  services.logger.warn(
    { tenantId: target.tenantId, kind: target.kind, assertedDomain: domain },
    `${target.kind} sign-in refused: the asserted address is not at a domain of the organisation`,
  );
  return false;
}

/** The user the identity provider asserted, if an active member of the tenant. */
export async function memberByAssertedEmail(services: SsoDeps, tenantId: number, email: string) {
  const member = await findActiveMember(services.db, tenantId, emailHash(email));
  return member?.active ? member : undefined;
}

/** Verifies the factor: the session now belongs to the asserted user, with fresh tokens. */
export async function completeSsoSession(
  services: SsoDeps,
  sessionId: string,
  kind: SsoKind,
  userId: number,
  client?: EventClient,
): Promise<SessionBody> {
  const now = services.now();
  return services.db.transaction().execute(async (trx) => {
    const session = await holdSession(trx, sessionId);
    if (!session || session.revoked_at || session.expires_at <= now)
      throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
    const factors = factorsAfterAnswer('sso', kind);
    await bindSsoSession(trx, { id: sessionId, userId, factors }, now);
    // Verified: the session now lives as long as any (pending, it had minutes); earlier tokens are history.
    const settled = await settleAndIssueTokens(services, trx, { id: sessionId, userId, factors });
    if (client) await signInSucceeded(trx, { client, method: kind }, userId, settled.factors);
    return settled;
  });
}
