import type { Request } from 'express';
import { ApiError } from '../errors';
import type { Services } from '../services';

export type Factors = Record<string, 'verified' | 'unverified'>;
export type Permissions = Record<string, Record<string, boolean | number | null>>;

export interface AuthContext {
  userId: number;
  sessionId: string;
  factors: Factors;
  /** Permission flags in the request's tenant (loaded once per request for tenant-scoped operations). */
  permissions: Permissions | null;
}

/** While a second factor is unverified the session may only complete or end itself. */
const allowedWhilePending = new Set(['createSessionChallenge', 'verifySessionChallenge', 'deleteSession']);

const bearerPattern = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export function bearerToken(req: Request): string {
  const header = req.headers.authorization;
  if (header === undefined || header === '') throw new ApiError('UNAUTHORIZED');
  const match = bearerPattern.exec(header);
  if (!match) throw new ApiError('INVALID_AUTHORIZATION_HEADER', { message: 'Expected "Authorization: Bearer <token>"' });
  return match[1];
}

export const hasPendingFactor = (factors: Factors) => Object.values(factors).includes('unverified');

export async function authenticate(req: Request, services: Services, operationId: string): Promise<AuthContext> {
  const claims = await services.tokens.verify(bearerToken(req));
  const session = await services.db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'factors', 'expires_at', 'revoked_at'])
    .where('id', '=', claims.sessionId)
    .executeTakeFirst();
  if (!session || session.user_id !== claims.userId || session.revoked_at !== null || session.expires_at <= services.now()) {
    throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  }
  if (hasPendingFactor(session.factors) && !allowedWhilePending.has(operationId)) {
    throw new ApiError('FORBIDDEN', { message: 'The second factor of this session is not verified yet' });
  }
  return { userId: session.user_id, sessionId: session.id, factors: session.factors, permissions: null };
}

/** `cosafe-tenant-id` must name a tenant the caller belongs to; the membership's permissions come along. */
export async function authorizeTenant(req: Request, services: Services, auth: AuthContext): Promise<number> {
  const tenantId = Number(req.headers['cosafe-tenant-id']);
  const membership = await services.db
    .selectFrom('memberships')
    .select('permissions')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', auth.userId)
    // Deactivated by the tenant's directory (SCIM): no longer a member for any call.
    .where('active', '=', true)
    .executeTakeFirst();
  if (!membership) throw new ApiError('FORBIDDEN', { message: 'Not a member of this tenant' });
  auth.permissions = membership.permissions;
  return tenantId;
}
