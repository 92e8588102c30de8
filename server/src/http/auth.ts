import type { Request } from 'express';
import { sql } from 'kysely';
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
  /** Whether the caller administers the request's tenant (tenant-scoped operations only). */
  tenantAdmin?: boolean;
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

/**
 * The access token's session, checked against the database on every request (revocation takes effect at once).
 * For tenant-scoped operations the membership named by `cosafe-tenant-id` comes in the same query.
 */
export async function authenticate(req: Request, services: Services, operationId: string, tenantScoped = false): Promise<AuthContext & { tenantId: number | null }> {
  const claims = await services.tokens.verify(bearerToken(req));
  const tenantId = tenantScoped ? Number(req.headers['cosafe-tenant-id']) : null;
  const session = await services.db
    .selectFrom('sessions as s')
    .$if(tenantId !== null, (q) =>
      q.leftJoin('memberships as m', (join) =>
        join
          .onRef('m.user_id', '=', 's.user_id')
          .on('m.tenant_id', '=', Number.isSafeInteger(tenantId) ? tenantId! : -1)
          // Deactivated by the tenant's directory (SCIM): no longer a member for any call.
          .on('m.active', '=', true),
      ),
    )
    .select(['s.id', 's.user_id', 's.factors', 's.expires_at', 's.revoked_at'])
    .$if(tenantId !== null, (q) => q.select([sql<boolean>`m.user_id is not null`.as('is_member'), sql<Permissions | null>`m.permissions`.as('permissions'), sql<boolean | null>`m.is_admin`.as('is_admin')]))
    .where('s.id', '=', claims.sessionId)
    .executeTakeFirst();
  if (!session || session.user_id !== claims.userId || session.revoked_at !== null || session.expires_at <= services.now()) {
    throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  }
  if (hasPendingFactor(session.factors) && !allowedWhilePending.has(operationId)) {
    throw new ApiError('FORBIDDEN', { message: 'The second factor of this session is not verified yet' });
  }
  const auth: AuthContext & { tenantId: number | null } = { userId: session.user_id, sessionId: session.id, factors: session.factors, permissions: null, tenantId: null };
  if (tenantId !== null) {
    // `cosafe-tenant-id` must name a tenant the caller belongs to; the membership's permissions come along.
    const membership = session as typeof session & { is_member?: boolean; permissions?: Permissions | null; is_admin?: boolean | null };
    if (!membership.is_member) throw new ApiError('FORBIDDEN', { message: 'Not a member of this tenant' });
    auth.permissions = membership.permissions ?? {};
    auth.tenantAdmin = membership.is_admin === true;
    auth.tenantId = tenantId;
  }
  return auth;
}
