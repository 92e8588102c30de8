// A member's permission flags in a tenant, changed by an operator (`npm run admin -- permission`): the API only
// reads them. Flags are named `area.flag` (cec.maySend) or `area.*` for every flag of an area.
import type { Db, Executor } from '../../db/database';
import { buildPermissions, permissionAreas, type UserPermissions } from './permission-flags';

export class PermissionChangeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermissionChangeRefused';
  }
}

/** Every flag's name, `area.flag`. */
export const allFlagNames = (): string[] =>
  Object.entries(permissionAreas).flatMap(([area, flags]) => (flags as string[]).map((flag) => `${area}.${flag}`));

/** The flags named, `area.*` expanded; unknown names are refused, all of them named. */
export function expandFlags(names: string[]): string[] {
  const known = allFlagNames();
  const out = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const area = name.endsWith('.*') ? name.slice(0, -2) : null;
    const matching = area ? known.filter((k) => k.startsWith(`${area}.`)) : known.filter((k) => k === name);
    if (matching.length === 0) unknown.push(name);
    for (const m of matching) out.add(m);
  }
  if (unknown.length)
    throw new PermissionChangeRefused(
      `Unknown permission flag(s): ${unknown.join(', ')}. Flags are area.flag or area.*, such as cec.maySend; \`permission show\` lists them.`,
    );
  return [...out];
}

async function membership(db: Executor, tenantId: number, email: string, lock: boolean) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.permissions'])
    .where('m.tenant_id', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()));
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new PermissionChangeRefused(`${email} is not a member of tenant ${tenantId}.`);
  return row;
}

/** The member's flags, every one, `area.flag` → on or off. */
export async function memberFlags(db: Executor, tenantId: number, email: string): Promise<Map<string, boolean>> {
  const { permissions } = await membership(db, tenantId, email, false);
  const flags = new Map<string, boolean>();
  for (const name of allFlagNames()) {
    const [area, flag] = name.split('.');
    flags.set(name, permissions?.[area]?.[flag] === true);
  }
  return flags;
}

/** Turns the flags on (`grant`) or off; answers those that changed. */
export async function changeMemberPermissions(
  db: Db,
  input: { tenantId: number; email: string; flags: string[]; on: boolean },
): Promise<string[]> {
  const names = expandFlags(input.flags);
  return db.transaction().execute(async (trx) => {
    const row = await membership(trx, input.tenantId, input.email, true);
    // A stored object lacking an area (older rows) gets it complete, off, before the change.
    const permissions = { ...(buildPermissions(false) as unknown as Record<string, Record<string, unknown>>) };
    for (const [area, values] of Object.entries(row.permissions ?? {}))
      permissions[area] = { ...permissions[area], ...values };
    const changed: string[] = [];
    for (const name of names) {
      const [area, flag] = name.split('.');
      if ((permissions[area][flag] === true) !== input.on) changed.push(name);
      permissions[area] = { ...permissions[area], [flag]: input.on };
    }
    if (changed.length)
      await trx
        .updateTable('memberships')
        .set({ permissions: JSON.stringify(permissions as unknown as UserPermissions) })
        .where('tenant_id', '=', input.tenantId)
        .where('user_id', '=', row.user_id)
        .execute();
    return changed;
  });
}
