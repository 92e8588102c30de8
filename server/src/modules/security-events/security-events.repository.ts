// The security_events table: the writer's insert (one statement for any number of events) and the reads.
import { type ExpressionBuilder, sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { Insertable, Selectable } from 'kysely';
import type { DB, SecurityEvents } from '../../db/types';
import type { SecurityEventKind } from '../../db/column-types';

export type SecurityEventRow = Selectable<SecurityEvents>;
export type NewSecurityEventRow = Insertable<SecurityEvents>;

export async function insertSecurityEvents(db: Executor, rows: NewSecurityEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('security_events').values(rows).execute();
}

export interface EventFilter {
  userId?: number;
  kinds?: SecurityEventKind[];
  from?: string;
  to?: string;
  /** Events older than this id (the cursor). */
  before?: string;
  limit: number;
}

/**
 * The one rule of which events a tenant's administrators see: the tenant's own, and the account events (no tenant) of
 * its members. The list operation and the operator tool both read through it.
 */
const seenByTenant = (tenantId: number) => (eb: ExpressionBuilder<DB & { e: SecurityEvents }, 'e'>) =>
  eb.or([
    eb('e.tenant_id', '=', tenantId),
    eb.and([
      eb('e.tenant_id', 'is', null),
      eb.exists(
        eb
          .selectFrom('memberships as m')
          .select(sql.lit(1).as('one'))
          .whereRef('m.user_id', '=', 'e.user_id')
          .where('m.tenant_id', '=', tenantId),
      ),
    ]),
  ]);

/**
 * A tenant's events, newest first: its own (tenant_id) and the account events (no tenant) of its current members.
 * Reads limit + 1 rows, so the caller knows whether a next page exists.
 */
export function selectTenantEvents(db: Executor, tenantId: number, f: EventFilter) {
  let q = db.selectFrom('security_events as e').selectAll('e').where(seenByTenant(tenantId));
  q = filtered(q, f);
  return q
    .orderBy('e.id', 'desc')
    .limit(f.limit + 1)
    .execute();
}

/** One account's events (every tenant's and its own), newest first; limit + 1 rows. */
export function selectUserEvents(db: Executor, userId: number, f: Omit<EventFilter, 'userId'>) {
  const q = filtered(db.selectFrom('security_events as e').selectAll('e').where('e.user_id', '=', userId), f);
  return q
    .orderBy('e.id', 'desc')
    .limit(f.limit + 1)
    .execute();
}

/**
 * The operator tool's read: every event (or a tenant's, as its administrators see them, or one account's) in id
 * order, oldest first from `after` (export) or newest first before `before` (list), at most `limit`.
 */
export function selectEventsForOperator(
  db: Executor,
  f: EventFilter & { tenantId?: number; after?: string; order: 'asc' | 'desc' },
) {
  let q = db.selectFrom('security_events as e').selectAll('e');
  const tenantId = f.tenantId;
  if (tenantId !== undefined) q = q.where(seenByTenant(tenantId));
  q = filtered(q, f);
  if (f.after !== undefined) q = q.where('e.id', '>', f.after as unknown as number);
  return q.orderBy('e.id', f.order).limit(f.limit).execute();
}

/** A user's id by the identity hash of their address (the operator names people by address). */
export const findUserIdByEmailHash = (db: Executor, hash: string) =>
  db.selectFrom('users').select('id').where('email_hash', '=', hash).executeTakeFirst();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function filtered<Q extends { where: (...args: any[]) => any }>(q: Q, f: Partial<EventFilter>): Q {
  let r: any = q; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (f.userId !== undefined) r = r.where('e.user_id', '=', f.userId);
  if (f.kinds?.length) r = r.where('e.kind', 'in', f.kinds);
  if (f.from !== undefined) r = r.where('e.at', '>=', f.from);
  if (f.to !== undefined) r = r.where('e.at', '<', f.to);
  if (f.before !== undefined) r = r.where('e.id', '<', f.before);
  return r as Q;
}
