// The statement behind authentication: a bearer token's session and the caller's membership.
import { sql } from 'kysely';
import { prepared } from '../db/prepared';
import type { Factors, Permissions } from '../shared/caller';

interface SessionRow {
  id: string;
  /** Null while a single sign-on session waits for its identity provider. */
  user_id: number | null;
  sso_tenant_id: number | null;
  factors: Factors;
  expires_at: Date;
  revoked_at: Date | null;
  /** When the session last proved the account's credentials (never a refresh); null if it never did. */
  proven_at: Date | null;
  /** Tenant-scoped operations only: the caller's active membership in the request's tenant. */
  is_member?: boolean;
  permissions?: Permissions | null;
  is_admin?: boolean | null;
}

/** The session behind a token and, for tenant-scoped operations, the caller's membership of the tenant. */
export const selectCallerSession = prepared<
  SessionRow,
  { sessionId: string; tenantId: number },
  { tenantScoped: boolean }
>((db, p, { tenantScoped }) =>
  db
    .selectFrom('sessions as s')
    .$if(tenantScoped, (q) =>
      q.leftJoin('memberships as m', (join) =>
        join
          .onRef('m.user_id', '=', 's.user_id')
          .on('m.tenant_id', '=', p.tenantId)
          // Deactivated by the tenant's directory (SCIM): no longer a member for any call.
          .on('m.active', '=', sql.lit(true)),
      ),
    )
    .select(['s.id', 's.user_id', 's.sso_tenant_id', 's.factors', 's.expires_at', 's.revoked_at', 's.proven_at'])
    .$if(tenantScoped, (q) =>
      q.select([
        sql<boolean>`m.user_id is not null`.as('is_member'),
        sql<Permissions | null>`m.permissions`.as('permissions'),
        sql<boolean | null>`m.is_admin`.as('is_admin'),
      ]),
    )
    .where('s.id', '=', p.sessionId),
);
