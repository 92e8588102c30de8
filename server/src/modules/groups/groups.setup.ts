// Groups an operator creates and fills (`npm run admin -- group`) where a tenant's directory (SCIM) does not:
// the API lists groups and members but does not create them. A group the directory manages is left to it.
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { GroupFunction, GroupType } from '../../db/column-types';

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
      (await trx
        .selectFrom('accounts')
        .select('id')
        .where('tenant_id', '=', input.tenantId)
        .orderBy('id')
        .executeTakeFirst()) ??
      (await trx
        .insertInto('accounts')
        .columns(['tenant_id', 'name'])
        .expression((eb) => eb.selectFrom('tenants').select(['id', 'name']).where('id', '=', input.tenantId))
        .returning('id')
        .executeTakeFirst());
    if (!account) throw new GroupChangeRefused(`There is no tenant ${input.tenantId}.`);
    const { id } = await trx
      .insertInto('groups')
      .values({
        tenant_id: input.tenantId,
        account_id: account.id,
        name: input.name,
        type: input.type,
        image_url: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.functions.length)
      await trx
        .insertInto('group_functions')
        .values([...new Set(input.functions)].map((f) => ({ group_id: id, function: f })))
        .execute();
    return id;
  });
}

export async function tenantGroups(db: Db, tenantId: number) {
  return db
    .selectFrom('groups as g')
    .leftJoin('scim_groups as s', 's.group_id', 'g.id')
    .select(['g.id', 'g.name', 'g.type', 'g.members_count', sql<boolean>`s.group_id is not null`.as('from_directory')])
    .where('g.tenant_id', '=', tenantId)
    .orderBy('g.name_folded')
    .orderBy('g.id')
    .execute();
}

/** Adds a member of the tenant to one of its groups (as its administrator with `admin`); answers what happened. */
export async function addGroupMember(
  db: Db,
  input: { tenantId: number; groupId: number; email: string; admin: boolean },
): Promise<'added' | 'updated' | 'unchanged'> {
  return db.transaction().execute(async (trx) => {
    const group = await trx
      .selectFrom('groups as g')
      .leftJoin('scim_groups as s', 's.group_id', 'g.id')
      .select(['g.id', 'g.name', sql<boolean>`s.group_id is not null`.as('from_directory')])
      .where('g.tenant_id', '=', input.tenantId)
      .where('g.id', '=', input.groupId)
      .executeTakeFirst();
    if (!group)
      throw new GroupChangeRefused(
        `Tenant ${input.tenantId} has no group ${input.groupId}. \`group list --tenant ${input.tenantId}\` shows them.`,
      );
    if (group.from_directory)
      throw new GroupChangeRefused(
        `Group ${group.id} (${group.name}) is managed by the tenant's directory (SCIM): change its members there.`,
      );
    const member = await trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.user_id')
      .where('m.tenant_id', '=', input.tenantId)
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', input.email.toLowerCase()))
      .executeTakeFirst();
    if (!member)
      throw new GroupChangeRefused(
        `${input.email} is not a member of tenant ${input.tenantId}: \`user invite\` adds them first.`,
      );
    const existing = await trx
      .selectFrom('group_members')
      .select('is_admin')
      .where('group_id', '=', group.id)
      .where('user_id', '=', member.user_id)
      .executeTakeFirst();
    if (existing && existing.is_admin === input.admin) return 'unchanged';
    if (existing) {
      await trx
        .updateTable('group_members')
        .set({ is_admin: input.admin })
        .where('group_id', '=', group.id)
        .where('user_id', '=', member.user_id)
        .execute();
      return 'updated';
    }
    await trx
      .insertInto('group_members')
      .values({ group_id: group.id, user_id: member.user_id, tenant_id: input.tenantId, is_admin: input.admin })
      .execute();
    return 'added';
  });
}
