import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../http/auth';
import type { Services } from '../../services';
import { pageOf, type Page, type PageParams } from '../tenants/paging';
import { imageUrlsOf } from '../users/image-urls';
import { toUser } from '../users/user-view';
import { viewerOf } from './group-visibility';
import {
  countGroupMembers,
  countGroups,
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

export async function listVisibleGroups(services: Services, auth: AuthContext, tenantId: number, filters: GroupFilters, params: PageParams): Promise<Page<Group>> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  if (viewer.scope === 'none') return pageOf([], 0, params);
  const rows = await selectGroups(services.db, viewer, filters, params);
  // An empty page carries no total: count separately only when the page could be empty while the list is not.
  const total = rows.length > 0 ? rows[0].total_count : params.offset > 0 || params.limit === 0 ? await countGroups(services.db, viewer, filters) : 0;
  return pageOf(rows.map(toGroup), total, params);
}

/** A group that does not exist and one the caller may not see answer alike (404). */
export async function getVisibleGroup(services: Services, auth: AuthContext, tenantId: number, groupId: number): Promise<Group> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  const row = await findVisibleGroup(services.db, viewer, groupId);
  if (!row) throw new ApiError('NOT_FOUND', { message: 'Group not found' });
  return toGroup(row);
}

export async function listMembersOfVisibleGroup(
  services: Services,
  auth: AuthContext,
  tenantId: number,
  groupId: number,
  options: { nameContains?: string; sort: MemberSort },
  params: PageParams,
): Promise<Page<GroupMember>> {
  const viewer = await viewerOf(services.db, auth, tenantId);
  if (!(await findVisibleGroup(services.db, viewer, groupId))) throw new ApiError('NOT_FOUND', { message: 'Group not found' });
  const [rows, total] = await Promise.all([
    selectGroupMembers(services.db, tenantId, groupId, options, params),
    countGroupMembers(services.db, tenantId, groupId, options.nameContains),
  ]);
  const base = services.config.publicBaseUrl;
  return pageOf(rows.map((row) => ({ ...toUser(row, base), isAdmin: row.is_admin })), total, params);
}
