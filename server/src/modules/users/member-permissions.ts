// A member's permission flags in a tenant, changed by an operator (`npm run admin -- permission`): the API only
// reads them. Flags are named `area.flag` (cec.maySend) or `area.*` for every flag of an area.
import type { Db, Executor } from '../../db/database';
import { buildPermissions, permissionAreas, type UserPermissions } from './permission-flags';
import { findMembershipByEmail, storeMemberPermissions } from './users.repository';
import { recordSecurityEvents, regionOnly } from '../security-events';

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
  const row = await findMembershipByEmail(db, tenantId, email, lock);
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

/**
 * Turns the flags on (`grant`) or off; answers those that changed. Each changed flag is a security event of the
 * tenant (`permission_granted` / `permission_revoked`, by the operator tool), in the transaction of the change.
 */
export async function changeMemberPermissions(
  db: Db,
  input: { tenantId: number; email: string; flags: string[]; on: boolean; region: string },
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
    if (changed.length) {
      await storeMemberPermissions(trx, input.tenantId, row.user_id, permissions as unknown as UserPermissions);
      await recordSecurityEvents(
        trx,
        changed.map((permission) => ({
          kind: input.on ? 'permission_granted' : 'permission_revoked',
          userId: row.user_id,
          tenantId: input.tenantId,
          actor: { type: 'operator' },
          client: regionOnly(input.region),
          details: { permission },
        })),
      );
    }
    return changed;
  });
}
