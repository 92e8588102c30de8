// Groups an operator creates and fills (`npm run admin -- group`) where a tenant's directory (SCIM) does not:
// the API lists groups and members but does not create them. A group the directory manages is left to it.
import type { Db } from '../../db/database';
import type { GroupFunction, GroupType } from '../../db/column-types';
import {
  findFirstAccount,
  findGroupMembership,
  findMemberByEmail,
  findTenantGroupWithOrigin,
  insertAccountNamedAfterTenant,
  insertGroupFunctions,
  insertGroupMember,
  insertOperatorGroup,
  listTenantGroups,
  setGroupAdmin,
} from './groups.repository';

export class GroupChangeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GroupChangeRefused';
  }
}

/** The types an operator can create: crossOrg groups are shared between tenants by agreement, not here. */
export const operatorGroupTypes = ['default', 'hidden', 'coAlert'] as const satisfies readonly GroupType[];
export const groupFunctions = [
  'checklists',
  'documents',
  'panic_button',
  'lone_worker_timer',
  'im_ok',
] as const satisfies readonly GroupFunction[];

export async function createGroup(
  db: Db,
  input: { tenantId: number; name: string; type: (typeof operatorGroupTypes)[number]; functions: GroupFunction[] },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The tenant's first account owns it; a tenant without one gets one named after it (as SCIM does).
    const account =
      (await findFirstAccount(trx, input.tenantId)) ?? (await insertAccountNamedAfterTenant(trx, input.tenantId));
    if (!account) throw new GroupChangeRefused(`There is no tenant ${input.tenantId}.`);
    const id = await insertOperatorGroup(trx, {
      tenantId: input.tenantId,
      accountId: account.id,
      name: input.name,
      type: input.type,
    });
    if (input.functions.length) await insertGroupFunctions(trx, id, [...new Set(input.functions)]);
    return id;
  });
}

export async function tenantGroups(db: Db, tenantId: number) {
  return listTenantGroups(db, tenantId);
}

/** Adds a member of the tenant to one of its groups (as its administrator with `admin`); answers what happened. */
export async function addGroupMember(
  db: Db,
  input: { tenantId: number; groupId: number; email: string; admin: boolean },
): Promise<'added' | 'updated' | 'unchanged'> {
  return db.transaction().execute(async (trx) => {
    const group = await findTenantGroupWithOrigin(trx, input.tenantId, input.groupId);
    if (!group)
      throw new GroupChangeRefused(
        `Tenant ${input.tenantId} has no group ${input.groupId}. \`group list --tenant ${input.tenantId}\` shows them.`,
      );
    if (group.from_directory)
      throw new GroupChangeRefused(
        `Group ${group.id} (${group.name}) is managed by the tenant's directory (SCIM): change its members there.`,
      );
    const member = await findMemberByEmail(trx, input.tenantId, input.email);
    if (!member)
      throw new GroupChangeRefused(
        `${input.email} is not a member of tenant ${input.tenantId}: \`user invite\` adds them first.`,
      );
    const existing = await findGroupMembership(trx, group.id, member.user_id);
    if (existing && existing.is_admin === input.admin) return 'unchanged';
    if (existing) {
      await setGroupAdmin(trx, group.id, member.user_id, input.admin);
      return 'updated';
    }
    await insertGroupMember(trx, {
      groupId: group.id,
      userId: member.user_id,
      tenantId: input.tenantId,
      admin: input.admin,
    });
    return 'added';
  });
}
