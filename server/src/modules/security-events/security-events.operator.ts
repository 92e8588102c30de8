// The operator tool's view of security events (`npm run admin -- security-events list | export`): every tenant's,
// one tenant's as its administrators see them, or one account's, printed as lines or exported as JSON lines.
import type { components } from '../../../../generated/core-api';
import type { Executor } from '../../db/database';
import type { SecurityEventKind } from '../../db/column-types';
import { emailHash } from '../../security/hashing';
import { findUserIdByEmailHash, selectEventsForOperator } from './security-events.repository';
import { toSecurityEvent } from './security-events.service';

export interface OperatorEventFilter {
  tenantId?: number;
  /** The account's address; an address no account has matches nothing. */
  email?: string;
  kinds?: SecurityEventKind[];
  from?: string;
  to?: string;
}

/** How many rows one read takes: an export of millions of events holds at most this many in memory. */
export const exportBatch = 1000;

async function baseFilter(db: Executor, f: OperatorEventFilter) {
  const userId = f.email === undefined ? undefined : ((await findUserIdByEmailHash(db, emailHash(f.email)))?.id ?? -1);
  return { tenantId: f.tenantId, userId, kinds: f.kinds, from: f.from, to: f.to };
}

/** The newest `limit` events matching, newest first. */
export async function latestSecurityEvents(
  db: Executor,
  f: OperatorEventFilter,
  limit: number,
): Promise<components['schemas']['SecurityEvent'][]> {
  const rows = await selectEventsForOperator(db, { ...(await baseFilter(db, f)), limit, order: 'desc' });
  return rows.map(toSecurityEvent);
}

/** Every event matching, oldest first, a batch at a time (each batch one statement). */
export async function* allSecurityEvents(
  db: Executor,
  f: OperatorEventFilter,
): AsyncGenerator<components['schemas']['SecurityEvent']> {
  const base = await baseFilter(db, f);
  let after: string | undefined;
  for (;;) {
    const rows = await selectEventsForOperator(db, { ...base, after, limit: exportBatch, order: 'asc' });
    for (const row of rows) yield toSecurityEvent(row);
    if (rows.length < exportBatch) return;
    after = String(rows[rows.length - 1]!.id);
  }
}
