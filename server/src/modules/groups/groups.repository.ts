import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { GroupFunction } from '../../db/types';
import { containsPattern, type PageParams } from '../tenants/paging';
import { userColumns } from '../users/user-view';
import { visibleGroupKeys, visibleGroups, type GroupBranch, type Viewer } from './group-visibility';

export interface GroupFilters {
  functions?: GroupFunction[];
  nameContains?: string;
  minMembers?: number;
  memberUserId?: number;
}

/** The keys (id, name_folded) of the groups the viewer may see that pass the filters, as `g`. */
function filteredGroupKeys(db: Db, viewer: Viewer, filters: GroupFilters, branches?: GroupBranch[]) {
  const { functions, nameContains, minMembers, memberUserId } = filters;
  // Two plain characters: the trigram index needs three, so the tenant's groups holding that pair come from the
  // bigram rows. Only for two printable ASCII characters, which stay two characters when the database folds
  // them, with the database's own lower(), the function that folded the stored names.
  const pair = nameContains !== undefined && /^[\x20-\x7e]{2}$/.test(nameContains) ? sql<string>`lower(${nameContains})` : undefined;
  let query = visibleGroupKeys(db, viewer, pair, branches);
  if (functions?.length) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('group_functions as gf').select('gf.group_id').whereRef('gf.group_id', '=', 'g.id').where('gf.function', 'in', functions)),
    );
  }
  // The LIKE is the match itself (and the final check on the pair rows).
  if (nameContains !== undefined) query = query.where('g.name_folded', 'like', sql<string>`lower(${containsPattern(nameContains)})`);
  if (minMembers !== undefined) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('groups as mg').select('mg.id').whereRef('mg.id', '=', 'g.id').where('mg.members_count', '>=', minMembers)),
    );
  }
  if (memberUserId !== undefined) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('group_members as fm').select('fm.user_id').whereRef('fm.group_id', '=', 'g.id').where('fm.user_id', '=', memberUserId)),
    );
  }
  return query.select(['g.id', 'g.name_folded']);
}

const groupColumns = ['g.id', 'g.name', 'g.type', 'g.members_count', 'g.image_url', 'a.id as account_id', 'a.name as account_name', 'a.tenant_id as account_tenant_id'] as const;

/**
 * A page of groups, each row carrying the total of the whole list; only the page's rows are read from the table.
 * The matching keys are the CTE `hits`, and the total counts them.
 * - With a name filter, the keys come from the trigram or pair index (their cost follows the number of
 *   matches): `hits` is read twice, so PostgreSQL finds them once, and the page is sorted from them.
 * - Without one, the page takes the first offset + limit keys of each branch (the tenant's own groups, the
 *   crossOrg groups it takes part in) in list order, which the tenant index gives without sorting, and merges
 *   them; `hits`, read once, is only counted (from the index). PostgreSQL does not merge the branches of a
 *   UNION ALL in index order itself, and sorted all of a tenant's 10,000 groups to show ten (7-11 ms, not 2).
 */
export async function selectGroups(db: Db, viewer: Viewer, filters: GroupFilters, page: PageParams) {
  const firstOf = (branch: GroupBranch) =>
    db
      .selectFrom(() => filteredGroupKeys(db, viewer, filters, [branch]).orderBy('g.name_folded').orderBy('g.id').limit(page.offset + page.limit).as('b'))
      .select(['b.id', 'b.name_folded']);
  return db
    .with('hits', () => filteredGroupKeys(db, viewer, filters))
    .selectFrom((qb) => {
      const keys =
        filters.nameContains !== undefined
          ? qb.selectFrom('hits').select(['hits.id', 'hits.name_folded']).as('k')
          : firstOf('owned').unionAll(firstOf('shared')).as('k');
      return qb.selectFrom(keys).select(['k.id', 'k.name_folded']).orderBy('k.name_folded').orderBy('k.id').limit(page.limit).offset(page.offset).as('page');
    })
    .innerJoin('groups as g', 'g.id', 'page.id')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select(groupColumns)
    .select(sql<string>`(select count(*) from hits)`.as('total_count'))
    .orderBy('page.name_folded')
    .orderBy('page.id')
    .execute();
}

export type GroupRow = Omit<Awaited<ReturnType<typeof selectGroups>>[number], 'total_count'>;

export async function countGroups(db: Db, viewer: Viewer, filters: GroupFilters): Promise<number> {
  const row = await db
    .selectFrom(filteredGroupKeys(db, viewer, filters).as('hits'))
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findVisibleGroup(db: Db, viewer: Viewer, groupId: number): Promise<GroupRow | undefined> {
  return visibleGroups(db, viewer).innerJoin('accounts as a', 'a.id', 'g.account_id').select(groupColumns).where('g.id', '=', groupId).executeTakeFirst();
}

export type MemberSort = 'name:asc' | 'name:desc' | 'title:asc' | 'title:desc';

/** Members of a group the tenant takes part in; tie-break by user id ascending (stable pages). */
function groupMembers(db: Db, tenantId: number, groupId: number, nameContains: string | undefined) {
  let query = db
    .selectFrom('group_members as gm')
    .innerJoin('group_tenants as gt', (join) => join.onRef('gt.group_id', '=', 'gm.group_id').on('gt.tenant_id', '=', tenantId))
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .where('gm.group_id', '=', groupId);
  if (nameContains !== undefined) query = query.where('u.name', 'ilike', containsPattern(nameContains));
  return query;
}

const memberOrder = {
  'name:asc': sql`lower(u.name) asc`,
  'name:desc': sql`lower(u.name) desc`,
  'title:asc': sql`lower(u.title) asc nulls last`,
  'title:desc': sql`lower(u.title) desc nulls first`,
} as const;

export async function selectGroupMembers(db: Db, tenantId: number, groupId: number, options: { nameContains?: string; sort: MemberSort }, page: PageParams) {
  return groupMembers(db, tenantId, groupId, options.nameContains)
    .select(userColumns.map((c) => `u.${c}` as const))
    .select('gm.is_admin')
    .orderBy(memberOrder[options.sort])
    .orderBy('u.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countGroupMembers(db: Db, tenantId: number, groupId: number, nameContains?: string): Promise<number> {
  const row = await groupMembers(db, tenantId, groupId, nameContains)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
