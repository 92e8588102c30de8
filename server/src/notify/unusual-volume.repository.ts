// SQL of the unusual-volume notice (unusual-volume.ts): the hourly counts per tenant and kind, the notice recorded
// once per tenant, kind and hour, and what its email needs.
import { sql } from 'kysely';
import type { Executor } from '../db/database';

export type VolumeKind = 'alarms' | 'messages';

/**
 * Adds to the hour's counts and answers, per tenant and kind, the hour's count, the usual count an hour over the
 * week before (its sum over 168 hours) and whether the hour has its notice already: one statement, each row
 * locked only for its own increment.
 */
export async function addVolume(
  db: Executor,
  hour: Date,
  counts: { tenantId: number; kind: VolumeKind; count: number }[],
): Promise<{ tenant_id: number; kind: VolumeKind; count: number; usual: number; noticed: boolean }[]> {
  if (counts.length === 0) return [];
  const weekBefore = new Date(hour.getTime() - 168 * 3_600_000);
  const { rows } = await sql<{ tenant_id: number; kind: VolumeKind; count: number; usual: number; noticed: boolean }>`
    with added as (
      insert into tenant_volume as v (tenant_id, kind, hour, count)
      select tenant_id, kind, ${hour}::timestamptz, count
        from unnest(${counts.map((c) => c.tenantId)}::bigint[], ${counts.map((c) => c.kind)}::text[],
                    ${counts.map((c) => c.count)}::int[]) as c (tenant_id, kind, count)
       order by tenant_id, kind
      on conflict (tenant_id, kind, hour) do update set count = v.count + excluded.count
      returning tenant_id, kind, count
    )
    select a.tenant_id, a.kind, a.count,
           coalesce((select sum(p.count) from tenant_volume p
                      where p.tenant_id = a.tenant_id and p.kind = a.kind
                        and p.hour >= ${weekBefore}::timestamptz and p.hour < ${hour}::timestamptz), 0)::float8 / 168 as usual,
           exists (select 1 from tenant_volume_notices n
                    where n.tenant_id = a.tenant_id and n.kind = a.kind and n.hour = ${hour}::timestamptz) as noticed
      from added a`.execute(db);
  return rows.map((r) => ({ ...r, tenant_id: Number(r.tenant_id), usual: Number(r.usual) }));
}

/** Records the hour's notice unless it exists; answers its id when this call recorded it. */
export async function insertVolumeNotice(
  db: Executor,
  notice: { tenantId: number; kind: VolumeKind; hour: Date; count: number; usual: number; now: Date },
): Promise<number | null> {
  const row = await db
    .insertInto('tenant_volume_notices')
    .values({
      tenant_id: notice.tenantId,
      kind: notice.kind,
      hour: notice.hour,
      count: notice.count,
      usual: notice.usual,
      created_at: notice.now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'hour']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** A notice with its tenant's name. */
export const findVolumeNotice = (db: Executor, noticeId: number) =>
  db
    .selectFrom('tenant_volume_notices as n')
    .innerJoin('tenants as t', 't.id', 'n.tenant_id')
    .select(['n.id', 'n.tenant_id', 'n.kind', 'n.hour', 'n.count', 'n.usual', 'n.sent_at', 't.name as organisation'])
    .where('n.id', '=', noticeId)
    .executeTakeFirst();

/** The tenant's active administrators with an email address, and the language each reads. */
export const selectNoticeRecipients = (db: Executor, tenantId: number) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.email', 's.preferred_language'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.is_admin', '=', true)
    .where('m.active', '=', true)
    .where('u.email', 'is not', null)
    .orderBy('u.id')
    .limit(100)
    .execute();

/** The notice's email went (to this many administrators). */
export const markVolumeNoticeSent = (db: Executor, noticeId: number, now: Date, administrators: number) =>
  db.updateTable('tenant_volume_notices').set({ sent_at: now, administrators }).where('id', '=', noticeId).execute();

/** A tenant's notices, newest first (what an administrator or the operator reads). */
export const selectVolumeNotices = (db: Executor, tenantId: number, limit = 100) =>
  db
    .selectFrom('tenant_volume_notices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('hour', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
