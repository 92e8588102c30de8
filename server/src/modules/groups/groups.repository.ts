import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import type { GroupFunction, GroupType } from '../../db/column-types';
import { containsPattern, pageAndTotal, type PageParams } from '../../shared/paging';
import { userColumns } from '../../shared/user-view';
import {
  shapeOf,
  visibleGroupKeys,
  visibleGroups,
  type GroupBranch,
  type Viewer,
  type ViewerParams,
  type ViewerShape,
} from './group-visibility.repository';

export interface GroupFilters {
  functions?: GroupFunction[];
  nameContains?: string;
  minMembers?: number;
  memberUserId?: number;
}

/**
 * Which filters a list has, what decides its statement's text. A name of two plain characters is a `pair`: the
 * trigram index needs three, so the tenant's groups holding that pair come from the bigram rows. Only for two
 * printable ASCII characters, which stay two characters when the database folds them.
 */
interface FilterShape {
  functions: boolean;
  name: 'none' | 'pair' | 'text';
  minMembers: boolean;
  memberUserId: boolean;
}

const filterShapeOf = (f: GroupFilters): FilterShape => ({
  functions: f.functions !== undefined && f.functions.length > 0,
  name: f.nameContains === undefined ? 'none' : /^[\x20-\x7e]{2}$/.test(f.nameContains) ? 'pair' : 'text',
  minMembers: f.minMembers !== undefined,
  memberUserId: f.memberUserId !== undefined,
});

type ListValues = {
  tenantId: number;
  userId: number;
  functions?: GroupFunction[];
  nameContains?: string;
  /** nameContains as a LIKE pattern (containsPattern). */
  pattern?: string;
  minMembers?: number;
  memberUserId?: number;
  limit: number;
  offset: number;
  /** offset + limit: how many keys each branch must give for the page. */
  pageEnd: number;
};
type ListParams = Placeholders<ListValues>;

/** The keys (id, name_folded) of the groups the viewer may see that pass the filters, as `g`. */
function filteredGroupKeys(
  db: Executor,
  viewer: ViewerParams,
  p: ListParams,
  shape: FilterShape,
  branches?: GroupBranch[],
) {
  // Folded with the database's own lower(), the function that folded the stored names.
  const pair = shape.name === 'pair' ? sql<string>`lower(${p.nameContains})` : undefined;
  let query = visibleGroupKeys(db, viewer, pair, branches);
  if (shape.functions) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('group_functions as gf')
          .select('gf.group_id')
          .whereRef('gf.group_id', '=', 'g.id')
          .where(sql<boolean>`gf.function = any(${p.functions}::text[])`),
      ),
    );
  }
  // The LIKE is the match itself (and the final check on the pair rows).
  if (shape.name !== 'none') query = query.where('g.name_folded', 'like', sql<string>`lower(${p.pattern})`);
  if (shape.minMembers) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('groups as mg')
          .select('mg.id')
          .whereRef('mg.id', '=', 'g.id')
          .where('mg.members_count', '>=', p.minMembers),
      ),
    );
  }
  if (shape.memberUserId) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('group_members as fm')
          .select('fm.user_id')
          .whereRef('fm.group_id', '=', 'g.id')
          .where('fm.user_id', '=', p.memberUserId),
      ),
    );
  }
  return query.select(['g.id', 'g.name_folded']);
}

const groupColumns = [
  'g.id',
  'g.name',
  'g.type',
  'g.members_count',
  'g.image_url',
  'a.id as account_id',
  'a.name as account_name',
  'a.tenant_id as account_tenant_id',
] as const;

/**
 * A page of groups, each row carrying the total of the whole list; only the page's rows are read from the table.
 * The matching keys are the CTE `hits`, and the total counts them.
 * - With a name filter, the keys come from the trigram or pair index (their cost follows the number of
 *   matches): `hits` is read twice, so PostgreSQL finds them once, and the page is sorted from them.
 * - Without one, the page takes the first offset + limit keys of each branch (the tenant's own groups, the
 *   crossOrg groups it takes part in) in list order, which the tenant index gives without sorting, and merges
 *   them; `hits`, read once, is only counted (from the index). PostgreSQL does not merge the branches of a
 *   UNION ALL in index order itself, and sorted all of a tenant's 10,000 groups to show ten (7-11 ms, not 2).
 * With a name filter the statement is planned for its pattern on every run (plan: 'custom'): the best plan
 * depends on how long and how rare the pattern is, and one generic plan for all of them doubled the p50.
 */
const groupPage = prepared(
  (db, p: ListParams, shape: ViewerShape & FilterShape) => {
    const viewer: ViewerParams = { scope: shape.scope, isAdmin: shape.isAdmin, tenantId: p.tenantId, userId: p.userId };
    const firstOf = (branch: GroupBranch) =>
      db
        .selectFrom(() =>
          filteredGroupKeys(db, viewer, p, shape, [branch])
            .orderBy('g.name_folded')
            .orderBy('g.id')
            .limit(p.pageEnd)
            .as('b'),
        )
        .select(['b.id', 'b.name_folded']);
    return db
      .with('hits', () => filteredGroupKeys(db, viewer, p, shape))
      .selectFrom((qb) => {
        const keys =
          shape.name !== 'none'
            ? qb.selectFrom('hits').select(['hits.id', 'hits.name_folded']).as('k')
            : firstOf('owned').unionAll(firstOf('shared')).as('k');
        return qb
          .selectFrom(keys)
          .select(['k.id', 'k.name_folded'])
          .orderBy('k.name_folded')
          .orderBy('k.id')
          .limit(p.limit)
          .offset(p.offset)
          .as('page');
      })
      .innerJoin('groups as g', 'g.id', 'page.id')
      .innerJoin('accounts as a', 'a.id', 'g.account_id')
      .select(groupColumns)
      .select(sql<string>`(select count(*) from hits)`.as('total_count'))
      .orderBy('page.name_folded')
      .orderBy('page.id');
  },
  (shape) => (shape.name !== 'none' ? { plan: 'custom' } : {}),
);

const groupCount = prepared(
  (db, p: ListParams, shape: ViewerShape & FilterShape) =>
    db
      .selectFrom(
        filteredGroupKeys(
          db,
          { scope: shape.scope, isAdmin: shape.isAdmin, tenantId: p.tenantId, userId: p.userId },
          p,
          shape,
        ).as('hits'),
      )
      .select(sql<string>`count(*)`.as('total_count')),
  (shape) => (shape.name !== 'none' ? { plan: 'custom' } : {}),
);

/**
 * A page of the groups the viewer may see and the list's total. An empty page carries no total: only when the
 * page could be empty while the list is not (past the end, or limit 0) is the total counted by a second statement.
 */
export async function selectGroups(
  db: Db,
  viewer: Viewer,
  filters: GroupFilters,
  page: PageParams,
): Promise<{ rows: GroupRow[]; total: number }> {
  const values: ListValues = {
    tenantId: viewer.tenantId,
    userId: viewer.userId,
    functions: filters.functions,
    nameContains: filters.nameContains,
    pattern: filters.nameContains === undefined ? undefined : containsPattern(filters.nameContains),
    minMembers: filters.minMembers,
    memberUserId: filters.memberUserId,
    limit: page.limit,
    offset: page.offset,
    pageEnd: page.offset + page.limit,
  };
  const shape = { ...shapeOf(viewer), ...filterShapeOf(filters) };
  const rows = await groupPage(db, values, shape);
  if (rows.length > 0) return { rows, total: Number(rows[0].total_count) };
  if (page.offset === 0 && page.limit > 0) return { rows, total: 0 };
  const [count] = await groupCount(db, values, shape);
  return { rows, total: Number(count.total_count) };
}

const visibleGroup = prepared(
  (db, p: Placeholders<{ tenantId: number; userId: number; groupId: number }>, shape: ViewerShape) =>
    visibleGroups(db, { ...shape, tenantId: p.tenantId, userId: p.userId })
      .innerJoin('accounts as a', 'a.id', 'g.account_id')
      .select(groupColumns)
      .where('g.id', '=', p.groupId),
);

export type GroupRow = Awaited<ReturnType<typeof visibleGroup>>[number];

export async function findVisibleGroup(db: Db, viewer: Viewer, groupId: number): Promise<GroupRow | undefined> {
  const [row] = await visibleGroup(db, { tenantId: viewer.tenantId, userId: viewer.userId, groupId }, shapeOf(viewer));
  return row;
}

export type MemberSort = 'name:asc' | 'name:desc' | 'title:asc' | 'title:desc';

const memberOrder = {
  'name:asc': sql`lower(u.name) asc`,
  'name:desc': sql`lower(u.name) desc`,
  'title:asc': sql`lower(u.title) asc nulls last`,
  'title:desc': sql`lower(u.title) desc nulls first`,
} as const;

/** A page of the members of a group the tenant takes part in, with the total; tie-break by user id ascending. */
const memberPage = prepared(
  (
    db,
    p: Placeholders<{ tenantId: number; groupId: number; pattern?: string; limit: number; offset: number }>,
    shape: { sort: MemberSort; byName: boolean },
  ) => {
    const members = () => {
      let query = db
        .selectFrom('group_members as gm')
        .innerJoin('group_tenants as gt', (join) =>
          join.onRef('gt.group_id', '=', 'gm.group_id').on('gt.tenant_id', '=', p.tenantId),
        )
        .innerJoin('users as u', 'u.id', 'gm.user_id')
        .where('gm.group_id', '=', p.groupId);
      if (shape.byName) query = query.where('u.name', 'ilike', p.pattern);
      return query;
    };
    const page = members()
      .select(userColumns.map((c) => `u.${c}` as const))
      .select('gm.is_admin')
      .orderBy(memberOrder[shape.sort])
      .orderBy('u.id')
      .limit(p.limit)
      .offset(p.offset);
    return pageAndTotal(db, members(), page);
  },
);

export async function selectGroupMembers(
  db: Db,
  tenantId: number,
  groupId: number,
  options: { nameContains?: string; sort: MemberSort },
  page: PageParams,
) {
  const pattern = options.nameContains === undefined ? undefined : containsPattern(options.nameContains);
  return memberPage(db, { tenantId, groupId, pattern, ...page }, { sort: options.sort, byName: pattern !== undefined });
}

/** The tenant's first account, which owns the groups an operator creates. */
export const findFirstAccount = (db: Executor, tenantId: number) =>
  db.selectFrom('accounts').select('id').where('tenant_id', '=', tenantId).orderBy('id').executeTakeFirst();

/** An account named after the tenant (as SCIM makes one); nothing when there is no such tenant. */
export const insertAccountNamedAfterTenant = (db: Executor, tenantId: number) =>
  db
    .insertInto('accounts')
    .columns(['tenant_id', 'name'])
    .expression((eb) => eb.selectFrom('tenants').select(['id', 'name']).where('id', '=', tenantId))
    .returning('id')
    .executeTakeFirst();

export async function insertOperatorGroup(
  db: Executor,
  group: { tenantId: number; accountId: number; name: string; type: GroupType },
): Promise<number> {
  const { id } = await db
    .insertInto('groups')
    .values({
      tenant_id: group.tenantId,
      account_id: group.accountId,
      name: group.name,
      type: group.type,
      image_url: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertGroupFunctions(db: Executor, groupId: number, functions: GroupFunction[]): Promise<void> {
  await db
    .insertInto('group_functions')
    .values(functions.map((f) => ({ group_id: groupId, function: f })))
    .execute();
}

/** The tenant's groups by name, each saying whether its directory (SCIM) manages it. */
export const listTenantGroups = (db: Executor, tenantId: number) =>
  db
    .selectFrom('groups as g')
    .leftJoin('scim_groups as s', 's.group_id', 'g.id')
    .select(['g.id', 'g.name', 'g.type', 'g.members_count', sql<boolean>`s.group_id is not null`.as('from_directory')])
    .where('g.tenant_id', '=', tenantId)
    .orderBy('g.name_folded')
    .orderBy('g.id')
    .execute();

/** One of the tenant's groups, saying whether its directory (SCIM) manages it. */
export const findTenantGroupWithOrigin = (db: Executor, tenantId: number, groupId: number) =>
  db
    .selectFrom('groups as g')
    .leftJoin('scim_groups as s', 's.group_id', 'g.id')
    .select(['g.id', 'g.name', sql<boolean>`s.group_id is not null`.as('from_directory')])
    .where('g.tenant_id', '=', tenantId)
    .where('g.id', '=', groupId)
    .executeTakeFirst();

/** The member of the tenant with this address (case-insensitive). */
export const findMemberByEmail = (db: Executor, tenantId: number, email: string) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.tenant_id', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .executeTakeFirst();

export const findGroupMembership = (db: Executor, groupId: number, userId: number) =>
  db
    .selectFrom('group_members')
    .select('is_admin')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export async function setGroupAdmin(db: Executor, groupId: number, userId: number, admin: boolean): Promise<void> {
  await db
    .updateTable('group_members')
    .set({ is_admin: admin })
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .execute();
}

export async function insertGroupMember(
  db: Executor,
  member: { groupId: number; userId: number; tenantId: number; admin: boolean },
): Promise<void> {
  await db
    .insertInto('group_members')
    .values({ group_id: member.groupId, user_id: member.userId, tenant_id: member.tenantId, is_admin: member.admin })
    .execute();
}
