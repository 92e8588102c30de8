// A search from the root (RFC 7644 section 3.4.3): the tenant's users, then its groups, in one list response, each
// resource as its own list answers it. A filter names an attribute of users, of groups or of both; a resource type
// without the attribute has no value for it, so none of its resources matches (RFC 7644 section 3.4.2).
import type { Projection } from './scim-attributes';
import { listResponse, parseEqFilter, scimPage } from './scim-filter';
import { groupFilterNames, groupFilters, listScimGroups } from './scim-groups.service';
import { listScimUsers, userFilterNames, userFilters } from './scim-users.service';
import type { ScimDeps } from './scim.deps';

const rootFilters: Record<string, string> = { ...userFilters, ...groupFilters };
const rootFilterNames = [...new Set([...userFilterNames, ...groupFilterNames])];

export async function searchScimResources(
  services: ScimDeps,
  tenantId: number,
  query: { filter?: string; startIndex?: number; count?: number } & Projection,
) {
  const filter = parseEqFilter(query.filter, rootFilters, rootFilterNames);
  const has = (filters: Record<string, string>) => !filter || Object.values(filters).includes(filter.attribute);
  const page = scimPage(query);
  const users = has(userFilters)
    ? await listScimUsers(services, tenantId, { ...query, startIndex: page.startIndex, count: page.count })
    : listResponse([], 0, page.startIndex);
  // Groups follow the users: the page's rest, from where the users end.
  const groups = has(groupFilters)
    ? await listScimGroups(services, tenantId, {
        ...query,
        startIndex: Math.max(1, page.startIndex - users.totalResults),
        count: page.count - users.Resources.length,
      })
    : listResponse([], 0, 1);
  return listResponse(
    [...users.Resources, ...groups.Resources],
    users.totalResults + groups.totalResults,
    page.startIndex,
  );
}
