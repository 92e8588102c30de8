// SQL of the repeat collapse (personal-alarms.repeats.ts): the window of each alarm's owner and recipients, locked
// for the transaction that decides whether the alarm is delivered or collapsed; the windows written back; and what
// a summary reads: its window, the summary already recorded, the collapsed alarms it stands for.
import { sql } from 'kysely';
import type { Executor } from '../../db/database';

/** The state of one window as its deciding transaction holds it (locked). */
export interface RepeatWindow {
  id: number;
  tenant_id: number;
  owner_id: number;
  generation: number;
  ends_at: Date;
  repeats: number;
}

/**
 * The window of each alarm (its owner and the digest of its recipient users and groups), made when missing (ended
 * long ago, so the first alarm is delivered) and locked, in one order for every transaction (tenant, owner, digest),
 * so two never wait for each other in a cycle. Answers each alarm's window.
 */
export async function lockRepeatWindows(
  db: Executor,
  alarms: { alarmId: number; tenantId: number; ownerId: number }[],
): Promise<Map<number, RepeatWindow>> {
  if (alarms.length === 0) return new Map();
  const { rows } = await sql<RepeatWindow & { alarm_id: number }>`
    with a as (
      select * from unnest(${alarms.map((a) => a.alarmId)}::bigint[], ${alarms.map((a) => a.tenantId)}::bigint[],
                           ${alarms.map((a) => a.ownerId)}::bigint[]) as a (alarm_id, tenant_id, owner_id)
    ), k as (
      select a.alarm_id, a.tenant_id, a.owner_id, md5(
               coalesce((select string_agg(ru.user_id::text, ',' order by ru.user_id)
                           from personal_alarm_recipient_users ru where ru.alarm_id = a.alarm_id), '') || ';' ||
               coalesce((select string_agg(rg.group_id::text, ',' order by rg.group_id)
                           from personal_alarm_recipient_groups rg where rg.alarm_id = a.alarm_id), '')) as recipients
        from a
    ), w as (
      insert into personal_alarm_repeat_windows (tenant_id, owner_id, recipients, ends_at)
      select distinct tenant_id, owner_id, recipients, to_timestamp(0) from k order by tenant_id, owner_id, recipients
      on conflict (tenant_id, owner_id, recipients) do update set generation = personal_alarm_repeat_windows.generation
      returning id, tenant_id, owner_id, recipients, generation, ends_at, repeats
    )
    select k.alarm_id, w.id, w.tenant_id, w.owner_id, w.generation, w.ends_at, w.repeats
      from k join w on w.tenant_id = k.tenant_id and w.owner_id = k.owner_id and w.recipients = k.recipients`.execute(
    db,
  );
  const windows = new Map<number, RepeatWindow>();
  const byAlarm = new Map<number, RepeatWindow>();
  for (const row of rows) {
    const id = Number(row.id);
    const window = windows.get(id) ?? {
      id,
      tenant_id: Number(row.tenant_id),
      owner_id: Number(row.owner_id),
      generation: row.generation,
      ends_at: new Date(row.ends_at),
      repeats: row.repeats,
    };
    windows.set(id, window);
    byAlarm.set(Number(row.alarm_id), window);
  }
  return byAlarm;
}

/** Writes the windows back as the transaction decided. */
export async function writeRepeatWindows(db: Executor, windows: RepeatWindow[]): Promise<void> {
  if (windows.length === 0) return;
  await sql`
    update personal_alarm_repeat_windows w set generation = v.generation, ends_at = v.ends_at, repeats = v.repeats
      from unnest(${windows.map((w) => w.id)}::bigint[], ${windows.map((w) => w.generation)}::int[],
                  ${windows.map((w) => w.ends_at)}::timestamptz[], ${windows.map((w) => w.repeats)}::int[])
           as v (id, generation, ends_at, repeats)
     where w.id = v.id`.execute(db);
}

/** One window, locked for its summary's transaction. */
export const lockRepeatWindow = (db: Executor, windowId: number) =>
  db
    .selectFrom('personal_alarm_repeat_windows')
    .select(['id', 'tenant_id', 'owner_id', 'generation', 'ends_at', 'repeats'])
    .where('id', '=', windowId)
    .forUpdate()
    .executeTakeFirst();

/** The summary already recorded for a window's generation, if any. */
export const findRepeatSummary = (db: Executor, windowId: number, generation: number) =>
  db
    .selectFrom('personal_alarm_messages')
    .select('id')
    .where('repeat_window_id', '=', windowId)
    .where('repeat_generation', '=', generation)
    .where('kind', '=', 'repeats')
    .executeTakeFirst();

/** The collapsed alarms of a window's generation, oldest first: what its summary stands for. */
export const findCollapsedRepeats = (db: Executor, windowId: number, generation: number) =>
  db
    .selectFrom('personal_alarm_messages as pm')
    .innerJoin('personal_alarms as a', 'a.id', 'pm.alarm_id')
    .select(['pm.id', 'pm.alarm_id', 'pm.created_at', 'a.version', 'a.tenant_id', 'a.user_id'])
    .where('pm.repeat_window_id', '=', windowId)
    .where('pm.repeat_generation', '=', generation)
    .where('pm.kind', '=', 'alarm')
    .orderBy('pm.id')
    .execute();

/** Opens the window's next generation: the summary just recorded is its last delivery. */
export async function reopenRepeatWindow(db: Executor, windowId: number, generation: number, endsAt: Date) {
  await db
    .updateTable('personal_alarm_repeat_windows')
    .set({ generation: generation + 1, repeats: 0, ends_at: endsAt })
    .where('id', '=', windowId)
    .execute();
}
