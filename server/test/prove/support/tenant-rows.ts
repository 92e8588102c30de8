// Every stored row that belongs to one tenant, found from the schema itself (so a table added later is covered
// without touching this file): rows with its tenant_id, and rows that hang off its users, sessions, groups,
// messages and alarms. Two snapshots compared show whether anything of the tenant changed.
import { sql } from 'kysely';
import type { Services } from '../../../src/services';

export type Snapshot = Record<string, string[]>;

const notOwned = new Set(['kysely_migration', 'kysely_migration_lock', 'outbox', 'throttles', 'verified_credentials']);

export async function tenantRows(services: Services, tenantId: number): Promise<Snapshot> {
  const { db } = services;
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns where table_schema = current_schema()`.execute(db);
  const tables = new Map<string, Set<string>>();
  for (const c of columns)
    (tables.get(c.table_name) ?? tables.set(c.table_name, new Set()).get(c.table_name)!).add(c.column_name);

  const t = sql.lit(tenantId);
  const users = sql`(select user_id from memberships where tenant_id = ${t})`;
  const ownedBy: Record<string, ReturnType<typeof sql>> = {
    tenant_id: sql`tenant_id = ${t}`,
    user_id: sql`user_id in ${users}`,
    // A single sign-on session opened for the tenant is its own before any user is bound to it.
    session_id: sql`session_id in (select id from sessions where user_id in ${users} or sso_tenant_id = ${t})`,
  };
  const snapshot: Snapshot = {};
  for (const [table, cols] of tables) {
    if (notOwned.has(table)) continue;
    let where: ReturnType<typeof sql> | null = null;
    if (table === 'tenants') where = sql`id = ${t}`;
    else if (table === 'users') where = sql`id in ${users}`;
    else if (table === 'sessions') where = sql`user_id in ${users} or sso_tenant_id = ${t}`;
    else if (table === 'jobs')
      where = sql`(payload->>'alarmId')::bigint in (select id from personal_alarms where tenant_id = ${t}) or (payload->>'messageId')::bigint in (select id from cec_messages where tenant_id = ${t})`;
    else if (cols.has('tenant_id')) where = ownedBy.tenant_id;
    else if (cols.has('user_id')) where = ownedBy.user_id;
    else if (cols.has('session_id')) where = ownedBy.session_id;
    else if (table.startsWith('cec_message'))
      where = sql`message_id in (select id from cec_messages where tenant_id = ${t})`;
    else if (table.startsWith('personal_alarm'))
      where = sql`alarm_id in (select id from personal_alarms where tenant_id = ${t})`;
    else if (cols.has('group_id')) where = sql`group_id in (select id from groups where tenant_id = ${t})`;
    // Sign-in sources belong to an identity (the email hash), so to the users with that identity.
    else if (cols.has('email_hash')) where = sql`email_hash in (select email_hash from users where id in ${users})`;
    if (!where) throw new Error(`tenantRows: no rule for table ${table}: say whose its rows are`);
    const { rows } = await sql<{
      row: string;
    }>`select to_jsonb(x)::text as row from ${sql.table(table)} x where ${where}`.execute(db);
    snapshot[table] = rows.map((r) => r.row).sort();
  }
  return snapshot;
}

/** Tables whose rows of the tenant differ between two snapshots, with what was added and removed. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = new Set(before[table] ?? []);
    const b = new Set(after[table] ?? []);
    const removed = [...a].filter((r) => !b.has(r));
    const added = [...b].filter((r) => !a.has(r));
    if (removed.length || added.length)
      out.push(`${table}: -${JSON.stringify(removed).slice(0, 300)} +${JSON.stringify(added).slice(0, 300)}`);
  }
  return out;
}
