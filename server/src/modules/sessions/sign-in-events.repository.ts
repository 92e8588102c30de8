// The one sign-in event with a statement of its own shape: a refusal by a lockout, written unless the account has one
// since `since` (one statement; the account's events are read newest first by their index).
import { sql } from 'kysely';
import type { Executor } from '../../db/database';

export async function recordRefusalOnce(
  db: Executor,
  p: {
    userId: number;
    now: Date;
    since: Date;
    region: string;
    network: string | null;
    userAgent: string | null;
    method: string;
  },
): Promise<boolean> {
  const result = await sql`
    insert into security_events (at, kind, outcome, user_id, actor_type, actor_user_id, region, network, user_agent, details)
    select ${p.now.toISOString()}::timestamptz, 'sign_in_locked_out', 'refused', ${p.userId}::bigint, 'self',
      ${p.userId}::bigint, ${p.region}, ${p.network}, ${p.userAgent}, jsonb_build_object('method', ${p.method}::text)
    where not exists (
      select 1 from security_events
      where user_id = ${p.userId}::bigint and kind = 'sign_in_locked_out' and at > ${p.since.toISOString()}::timestamptz)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0) > 0;
}
