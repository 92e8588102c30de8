// SQL of which groups a caller sees in a tenant (contract of listGroups): groups.mayInteractWithAll → every group the
// tenant takes part in, groups.mayInteractWithOwn → the groups the caller is a member of (through this tenant),
// neither → none. Hidden groups additionally need membership or the tenant administrator role.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db, Executor } from '../../db/database';
import { prepared, type Placeholder, type Placeholders } from '../../db/prepared';
import type { AuthContext } from '../../shared/caller';
import { isTenantAdmin } from '../../shared/tenant-access';

export type GroupScope = 'all' | 'own' | 'none';

/** What decides the text of a statement about the groups a viewer sees. */
export interface ViewerShape {
  scope: GroupScope;
  isAdmin: boolean;
}

export interface Viewer extends ViewerShape {
  tenantId: number;
  userId: number;
}

/** A viewer inside a prepared statement: the shape decided, the ids as placeholders. */
export interface ViewerParams extends ViewerShape {
  tenantId: Placeholder;
  userId: Placeholder;
}

export const shapeOf = (viewer: Viewer): ViewerShape => ({ scope: viewer.scope, isAdmin: viewer.isAdmin });

export async function viewerOf(db: Db, auth: AuthContext, tenantId: number): Promise<Viewer> {
  const flags = auth.permissions?.groups ?? {};
  const scope: GroupScope =
    flags.mayInteractWithAll === true ? 'all' : flags.mayInteractWithOwn === true ? 'own' : 'none';
  return {
    tenantId,
    userId: auth.userId,
    scope,
    isAdmin: auth.tenantAdmin ?? (await isTenantAdmin(db, tenantId, auth.userId)),
  };
}

/** Whether the viewer is a member of `g` through the viewer's tenant (IN, so the viewer's few groups are hashed once). */
const viewerIsMember = (viewer: ViewerParams) =>
  sql<boolean>`g.id in (select vm.group_id from group_members vm where vm.user_id = ${viewer.userId} and vm.tenant_id = ${viewer.tenantId})`;

/**
 * The groups of the viewer's tenant the viewer may see, as `g`: the groups the tenant owns, plus the crossOrg
 * groups it takes part in. Two branches (not one join through group_tenants) so that the owned branch walks
 * groups_tenant_folded_idx in list order and a page can stop early.
 */
export function visibleGroups(db: Executor, viewer: ViewerParams) {
  const owned = db.selectFrom('groups').selectAll().where('tenant_id', '=', viewer.tenantId);
  const shared = db
    .selectFrom('groups as sg')
    .innerJoin('group_tenants as st', 'st.group_id', 'sg.id')
    .selectAll('sg')
    .where('st.tenant_id', '=', viewer.tenantId)
    .where('st.is_owner', '=', sql.lit(false));
  return restrictToViewer(db.selectFrom(owned.unionAll(shared).as('g')), viewer);
}

export type GroupBranch = 'owned' | 'shared';

/**
 * The same groups with only the columns a list filters and sorts on (id, name_folded, type), all of which
 * groups_tenant_folded_idx holds: a filtered list is answered from the index without reading the rows.
 * `branches` picks the tenant's own groups, the crossOrg groups of other tenants it takes part in, or both.
 * With `ownedHoldingPair` (two characters, already folded by the database), the tenant's own groups come from
 * the pair rows of group_name_bigrams, which hold the same columns: only the groups whose name holds the pair.
 */
export function visibleGroupKeys(
  db: Executor,
  viewer: ViewerParams,
  ownedHoldingPair?: RawBuilder<string>,
  branches: GroupBranch[] = ['owned', 'shared'],
) {
  const owned =
    ownedHoldingPair === undefined
      ? db.selectFrom('groups').select(['id', 'name_folded', 'type']).where('tenant_id', '=', viewer.tenantId)
      : db
          .selectFrom('group_name_bigrams')
          .select(['group_id as id', 'name_folded', 'type'])
          .where('tenant_id', '=', viewer.tenantId)
          .where('gram', '=', ownedHoldingPair);
  const shared = db
    .selectFrom('groups as sg')
    .innerJoin('group_tenants as st', 'st.group_id', 'sg.id')
    .select(['sg.id', 'sg.name_folded', 'sg.type'])
    .where('st.tenant_id', '=', viewer.tenantId)
    .where('st.is_owner', '=', sql.lit(false));
  const source = branches.length === 2 ? owned.unionAll(shared) : branches[0] === 'owned' ? owned : shared;
  return restrictToViewer(db.selectFrom(source.as('g')), viewer);
}

/** The scope rules, on a query over `g` with at least `g.id` and `g.type`. */
function restrictToViewer<Q extends SelectQueryBuilder<any, 'g', any>>(base: Q, viewer: ViewerParams): Q {
  const query = base as SelectQueryBuilder<{ g: { id: number; type: string } }, 'g', object>;
  if (viewer.scope === 'none') return query.where(sql<boolean>`false`) as unknown as Q;
  if (viewer.scope === 'own') return query.where(viewerIsMember(viewer)) as unknown as Q;
  if (viewer.isAdmin) return base;
  return query.where((eb) => eb.or([eb('g.type', '<>', sql.lit('hidden')), viewerIsMember(viewer)])) as unknown as Q;
}

const sharedGroup = prepared(
  (db, p: Placeholders<{ tenantId: number; viewerId: number; userId: number }>, shape: ViewerShape) =>
    visibleGroups(db, { ...shape, tenantId: p.tenantId, userId: p.viewerId })
      .select('g.id')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('group_members as tm')
            .select('tm.user_id')
            .whereRef('tm.group_id', '=', 'g.id')
            .where('tm.user_id', '=', p.userId),
        ),
      )
      .limit(sql.lit(1)),
);

/** Whether `userId` is a member of at least one group the viewer may see. */
export async function sharesVisibleGroup(db: Db, viewer: Viewer, userId: number): Promise<boolean> {
  const rows = await sharedGroup(db, { tenantId: viewer.tenantId, viewerId: viewer.userId, userId }, shapeOf(viewer));
  return rows.length > 0;
}
