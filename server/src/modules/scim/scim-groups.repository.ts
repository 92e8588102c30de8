// SQL of SCIM groups: platform groups of the tenant that its directory created (scim_groups), with members
// who are users of the same tenant. Every query carries the tenant.
import type { Executor } from '../../db/database';
import type { EqFilter } from './scim-filter';

const columns = [
  'groups.id',
  'groups.name',
  'groups.created_at',
  'scim_groups.external_id',
  'scim_groups.updated_at',
] as const;
const numericId = (value: string) => (/^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : null);

function tenantGroups(db: Executor, tenantId: number, filter: EqFilter | null) {
  let query = db
    .selectFrom('scim_groups')
    .innerJoin('groups', 'groups.id', 'scim_groups.group_id')
    .where('scim_groups.tenant_id', '=', tenantId)
    .where('groups.tenant_id', '=', tenantId);
  if (filter?.attribute === 'displayName')
    query = query.where((eb) => eb(eb.fn('lower', ['groups.name']), '=', filter.value.toLowerCase()));
  if (filter?.attribute === 'externalId') query = query.where('scim_groups.external_id', '=', filter.value);
  if (filter?.attribute === 'id') query = query.where('groups.id', '=', numericId(filter.value) ?? -1);
  return query;
}

export const selectScimGroups = (
  db: Executor,
  tenantId: number,
  filter: EqFilter | null,
  page: { offset: number; count: number },
) =>
  tenantGroups(db, tenantId, filter)
    .select(columns)
    .orderBy('groups.id')
    .limit(page.count)
    .offset(page.offset)
    .execute();

export type ScimGroupRow = Awaited<ReturnType<typeof selectScimGroups>>[number];

export async function countScimGroups(db: Executor, tenantId: number, filter: EqFilter | null): Promise<number> {
  const row = await tenantGroups(db, tenantId, filter)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findScimGroup(
  db: Executor,
  tenantId: number,
  id: string,
  lock = false,
): Promise<ScimGroupRow | undefined> {
  const groupId = numericId(id);
  if (groupId === null) return undefined;
  const query = tenantGroups(db, tenantId, null).select(columns).where('groups.id', '=', groupId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export const selectMembers = (db: Executor, tenantId: number, groupIds: number[]) =>
  groupIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select(['group_members.group_id', 'users.id', 'users.name'])
        .where('group_members.tenant_id', '=', tenantId)
        .where('group_members.group_id', 'in', groupIds)
        .orderBy('users.id')
        .execute();

/** The tenant's first account, created when the tenant has none yet (groups belong to an account). */
export async function accountForGroups(db: Executor, tenantId: number): Promise<number> {
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (account) return account.id;
  const tenant = await db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirstOrThrow();
  const created = await db
    .insertInto('accounts')
    .values({ tenant_id: tenantId, name: tenant.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

export async function insertScimGroup(
  db: Executor,
  row: { tenantId: number; accountId: number; name: string; externalId: string | null },
): Promise<number> {
  const group = await db
    .insertInto('groups')
    .values({ tenant_id: row.tenantId, account_id: row.accountId, name: row.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scim_groups')
    .values({ group_id: group.id, tenant_id: row.tenantId, external_id: row.externalId })
    .execute();
  return group.id;
}

export async function updateScimGroup(
  db: Executor,
  tenantId: number,
  groupId: number,
  values: { name: string; externalId: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('groups')
    .set({ name: values.name })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', groupId)
    .execute();
  await db
    .updateTable('scim_groups')
    .set({ external_id: values.externalId, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('group_id', '=', groupId)
    .execute();
}

/** The ids among `userIds` that are users of the tenant. */
export async function tenantUserIds(db: Executor, tenantId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function addMembers(db: Executor, tenantId: number, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('group_members')
    .values(userIds.map((user_id) => ({ group_id: groupId, user_id, tenant_id: tenantId })))
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
}

export async function removeMembers(
  db: Executor,
  tenantId: number,
  groupId: number,
  userIds: number[] | 'all',
): Promise<void> {
  let query = db.deleteFrom('group_members').where('tenant_id', '=', tenantId).where('group_id', '=', groupId);
  if (userIds !== 'all') {
    if (userIds.length === 0) return;
    query = query.where('user_id', 'in', userIds);
  }
  await query.execute();
}

export async function deleteScimGroup(db: Executor, tenantId: number, groupId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('groups')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', groupId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
