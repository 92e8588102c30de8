import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { GroupsDeps } from './groups.deps';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';
import { imageUrlsOf } from '../../shared/image-urls';
import { toUser } from '../../shared/user-view';
import { sharesVisibleGroup, viewerOf } from './group-visibility.repository';
import type { Db } from '../../db/database';
import {
  findVisibleGroup,
  selectGroupMembers,
  selectGroups,
  type GroupFilters,
  type GroupRow,
  type MemberSort,
} from './groups.repository';

type Group = components['schemas']['Group'];
type GroupMember = components['schemas']['GroupMember'];

function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    membersCount: row.members_count,
    account: { id: row.account_id, name: row.account_name, tenantId: row.account_tenant_id },
    imageUrls: row.image_url === null ? null : imageUrlsOf(row.image_url),
  };
}

export async function listVisibleGroups(
  services: GroupsDeps,
  auth: AuthContext,
  tenantId: number,
  filters: GroupFilters,
  params: PageParams,
): Promise<Page<Group>> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  if (viewer.scope === 'none') return pageOf([], 0, params);
  const { rows, total } = await selectGroups(services.db, viewer, filters, params);
  return pageOf(rows.map(toGroup), total, params);
}

/** A group that does not exist and one the caller may not see answer alike (404). */
export async function getVisibleGroup(
  services: GroupsDeps,
  auth: AuthContext,
  tenantId: number,
  groupId: number,
): Promise<Group> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  const row = await findVisibleGroup(services.db, viewer, groupId);
  if (!row) throw new ApiError('NOT_FOUND', { message: 'Group not found' });
  return toGroup(row);
}

export async function listMembersOfVisibleGroup(
  services: GroupsDeps,
  auth: AuthContext,
  tenantId: number,
  groupId: number,
  options: { nameContains?: string; sort: MemberSort },
  params: PageParams,
): Promise<Page<GroupMember>> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  if (!(await findVisibleGroup(services.db, viewer, groupId)))
    throw new ApiError('NOT_FOUND', { message: 'Group not found' });
  const { rows, total } = pageRows(await selectGroupMembers(services.db, tenantId, groupId, options, params));
  const base = services.config.publicBaseUrl;
  return pageOf(
    rows.map((row) => ({ ...toUser(row, base), isAdmin: row.is_admin })),
    total,
    params,
  );
}

/**
 * Whether the caller sees another user of the tenant: the tenant's administrator sees everyone, anyone else the
 * members of a group both of them can see.
 */
export async function seesUser(db: Db, auth: AuthContext, tenantId: number, userId: number): Promise<boolean> {
  const viewer = await viewerOf(db, auth, tenantId);
  return viewer.isAdmin || sharesVisibleGroup(db, viewer, userId);
}
