import type { Request } from 'express';
import { ApiError } from '../errors';
import type { Db } from '../db/database';
import type { AccessTokens } from '../security/access-tokens';
import type { Factors, SessionCaller } from '../shared/caller';
import { selectCallerSession } from './auth.repository';
import { pendingOperations } from './operations';

/** While a factor is unverified (or no user is bound yet) the session may only complete or end itself. */
const allowedWhilePending = new Set<string>(pendingOperations);

const bearerPattern = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export function bearerToken(req: Request): string {
  const header = req.headers.authorization;
  if (header === undefined || header === '') throw new ApiError('UNAUTHORIZED');
  const match = bearerPattern.exec(header);
  if (!match)
    throw new ApiError('INVALID_AUTHORIZATION_HEADER', { message: 'Expected "Authorization: Bearer <token>"' });
  return match[1];
}

export const hasPendingFactor = (factors: Factors) => Object.values(factors).includes('unverified');

/**
 * The access token's session, checked against the database on every request (revocation takes effect at once).
 * For tenant-scoped operations the membership named by `cosafe-tenant-id` comes in the same query. A session bound
 * to no user (single sign-on before the identity provider answered) always has an unverified factor, and is refused
 * like one by every operation but its own challenges and logout: only those see a caller whose `userId` is null.
 */
export async function authenticate(
  req: Request,
  services: AuthDeps,
  operationId: string,
  tenantScoped = false,
): Promise<SessionCaller & { tenantId: number | null }> {
  const claims = await services.tokens.verify(bearerToken(req));
  const tenantId = tenantScoped ? Number(req.headers['cosafe-tenant-id']) : null;
  const [session] = await selectCallerSession(
    services.db,
    { sessionId: claims.sessionId, tenantId: Number.isSafeInteger(tenantId) ? tenantId! : -1 },
    { tenantScoped },
  );
  if (
    !session ||
    session.user_id !== claims.userId ||
    session.revoked_at !== null ||
    session.expires_at <= services.now()
  ) {
    throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  }
  // A token issued while the second factor was pending ends with the wait: verifying issued new tokens.
  if (claims.pending && !hasPendingFactor(session.factors))
    throw new ApiError('INVALID_SESSION', {
      message: 'The session has new tokens since its second factor was verified',
    });
  if ((hasPendingFactor(session.factors) || session.user_id === null) && !allowedWhilePending.has(operationId)) {
    throw new ApiError('FORBIDDEN', { message: 'The second factor of this session is not verified yet' });
  }
  const auth: SessionCaller & { tenantId: number | null } = {
    userId: session.user_id,
    ssoTenantId: session.sso_tenant_id,
    sessionId: session.id,
    factors: session.factors,
    provenAt: session.proven_at,
    permissions: null,
    tenantId: null,
  };
  if (tenantId !== null) {
    // `cosafe-tenant-id` must name a tenant the caller belongs to; the membership's permissions come along.
    if (!session.is_member) throw new ApiError('FORBIDDEN', { message: 'Not a member of this tenant' });
    auth.permissions = session.permissions ?? {};
    auth.tenantAdmin = session.is_admin === true;
    auth.tenantId = tenantId;
  }
  return auth;
}

/** What authentication reads: the access tokens, the sessions in the database and the clock. */
export interface AuthDeps {
  tokens: AccessTokens;
  db: Db;
  now: () => Date;
}
