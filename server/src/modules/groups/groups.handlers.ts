import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import { getVisibleGroup, listMembersOfVisibleGroup, listVisibleGroups } from './groups.service';
import type { GroupsDeps } from './groups.deps';

/** `function[in]` arrives as an array from the validator (form style, not exploded); a bare string is split. */
const listOf = <T extends string>(value: T[] | string | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : (value.split(',') as T[]);

export const groupHandlers = (
  services: GroupsDeps,
): PartialHandlers<'listGroups' | 'getGroup' | 'listGroupMembers'> => ({
  listGroups: async (ctx) => {
    const q = ctx.query;
    const filters = {
      functions: listOf(q['function[in]']),
      nameContains: q['name[match]'],
      minMembers: q['membersCount[gte]'],
      memberUserId: q.memberUserId,
    };
    return {
      status: 200,
      body: await listVisibleGroups(services, requireAuth(ctx), requireTenant(ctx), filters, pageParams(q)),
    };
  },
  getGroup: async (ctx) => ({
    status: 200,
    body: await getVisibleGroup(services, requireAuth(ctx), requireTenant(ctx), ctx.path.groupId),
  }),
  listGroupMembers: async (ctx) => {
    const q = ctx.query;
    const options = { nameContains: q['name[match]'], sort: q.sort ?? 'name:asc' };
    return {
      status: 200,
      body: await listMembersOfVisibleGroup(
        services,
        requireAuth(ctx),
        requireTenant(ctx),
        ctx.path.groupId,
        options,
        pageParams(q),
      ),
    };
  },
});
