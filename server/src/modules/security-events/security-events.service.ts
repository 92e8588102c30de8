// Security events: the writer every module calls in the transaction (or before the statement) of what it records,
// and the lists for a tenant's administrators and for each user. An event is never written on its own for a change:
// the caller passes the executor of its change (a transaction), so either both are written or neither is.
import type { components } from '../../../../generated/core-api';
import type { Executor } from '../../db/database';
import type {
  SecurityEventActor,
  SecurityEventDetails,
  SecurityEventKind,
  SecurityEventOutcome,
} from '../../db/column-types';
import { securityEventsWritten } from '../../metrics/metrics';
import type { AuthContext } from '../../shared/caller';
import { requireTenantAdmin } from '../../shared/tenant-access';
import type { EventClient } from './security-events.client';
import type { SecurityEventsDeps } from './security-events.deps';
import {
  insertSecurityEvents,
  selectTenantEvents,
  selectUserEvents,
  type EventFilter,
  type NewSecurityEventRow,
  type SecurityEventRow,
} from './security-events.repository';

export type { SecurityEventActor, SecurityEventDetails, SecurityEventKind, SecurityEventOutcome };
type SecurityEventBody = components['schemas']['SecurityEvent'];
type SecurityEventPage = components['schemas']['SecurityEventPage'];

/** Every kind, in the contract's order (SecurityEventKind). */
export const securityEventKinds: readonly SecurityEventKind[] = [
  'sign_in_succeeded',
  'sign_in_failed',
  'sign_in_locked_out',
  'sign_in_stepped_up',
  'second_factor_failed',
  'passkey_added',
  'passkey_removed',
  'password_changed',
  'password_reset',
  'sessions_ended',
  'permission_granted',
  'permission_revoked',
  'member_provisioned',
  'member_updated',
  'member_deactivated',
  'member_removed',
];

/** The outcome a kind has unless the event says otherwise. */
const defaultOutcome = (kind: SecurityEventKind): SecurityEventOutcome =>
  kind === 'sign_in_failed' || kind === 'second_factor_failed'
    ? 'failed'
    : kind === 'sign_in_locked_out'
      ? 'refused'
      : 'succeeded';

/** An event to record. No field may hold a password, a code, a token or a hash: the types leave no room for one. */
export interface SecurityEvent {
  kind: SecurityEventKind;
  /** The account it is about; null when there is none (never for a tenant's administrators to see). */
  userId: number | null;
  /** The tenant it happened in; leave out for an event of the account itself (a sign-in, a passkey, a password). */
  tenantId?: number | null;
  /** Who did it; `self` (the account's user) unless said. */
  actor?: { type: SecurityEventActor; userId?: number | null };
  client: EventClient;
  outcome?: SecurityEventOutcome;
  details?: SecurityEventDetails;
  /** When; the writer's clock (now) unless given. */
  at?: Date;
}

/** The row an event is stored as (for a statement that writes the event itself, in the same round trip). */
export function securityEventRow(event: SecurityEvent, now: Date = new Date()): NewSecurityEventRow {
  const actorType = event.actor?.type ?? 'self';
  return {
    at: (event.at ?? now).toISOString(),
    kind: event.kind,
    outcome: event.outcome ?? defaultOutcome(event.kind),
    tenant_id: event.tenantId ?? null,
    user_id: event.userId,
    actor_type: actorType,
    actor_user_id: event.actor?.userId ?? (actorType === 'self' ? event.userId : null),
    region: event.client.region,
    network: event.client.network,
    user_agent: event.client.userAgent,
    details: JSON.stringify(event.details ?? {}),
  };
}

/** Counts written events per kind (the only label: bounded, no user's). */
export function countSecurityEvents(kinds: readonly SecurityEventKind[]): void {
  for (const kind of kinds) securityEventsWritten.inc({ kind });
}

/**
 * Records one event on `db`: pass the transaction of the change it records, so neither is written without the
 * other. One statement.
 */
export function recordSecurityEvent(db: Executor, event: SecurityEvent): Promise<void> {
  return recordSecurityEvents(db, [event]);
}

/** Records several events in one statement (a directory's batch, sessions ended for several users). */
export async function recordSecurityEvents(db: Executor, events: SecurityEvent[]): Promise<void> {
  if (events.length === 0) return;
  const now = new Date();
  await insertSecurityEvents(
    db,
    events.map((e) => securityEventRow(e, now)),
  );
  countSecurityEvents(events.map((e) => e.kind));
}

export function toSecurityEvent(row: SecurityEventRow): SecurityEventBody {
  const details = typeof row.details === 'string' ? JSON.parse(row.details) : row.details;
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    kind: row.kind,
    outcome: row.outcome,
    tenantId: row.tenant_id === null ? null : Number(row.tenant_id),
    userId: row.user_id === null ? null : Number(row.user_id),
    actor: { type: row.actor_type, userId: row.actor_user_id === null ? null : Number(row.actor_user_id) },
    region: row.region as SecurityEventBody['region'],
    client: { network: row.network, userAgent: row.user_agent },
    details: details ?? {},
  };
}

export interface EventQuery {
  userId?: number;
  kind?: SecurityEventKind[];
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

export const defaultEventLimit = 20;

const filterOf = (q: EventQuery): EventFilter => ({
  userId: q.userId,
  kinds: q.kind,
  from: q.from,
  to: q.to,
  before: q.cursor,
  limit: Number(q.limit ?? defaultEventLimit),
});

function pageOf(rows: SecurityEventRow[], limit: number): SecurityEventPage {
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { data: page.map(toSecurityEvent), nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** The tenant's events for its administrators (403 FORBIDDEN for anyone else), newest first. */
export async function listTenantSecurityEvents(
  services: SecurityEventsDeps,
  auth: AuthContext,
  tenantId: number,
  query: EventQuery,
): Promise<SecurityEventPage> {
  await requireTenantAdmin(
    services.db,
    tenantId,
    auth.userId,
    'FORBIDDEN',
    'Only administrators of the tenant may read its security events',
    auth.tenantAdmin,
  );
  const filter = filterOf(query);
  return pageOf(await selectTenantEvents(services.db, tenantId, filter), filter.limit);
}

/** The caller's own events, newest first. */
export async function listOwnSecurityEvents(
  services: SecurityEventsDeps,
  auth: AuthContext,
  query: Omit<EventQuery, 'userId'>,
): Promise<SecurityEventPage> {
  const filter = filterOf(query);
  return pageOf(await selectUserEvents(services.db, auth.userId, filter), filter.limit);
}
