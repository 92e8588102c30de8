// A world of tenants, signed-in users, their memberships and groups, described in one object and inserted in the
// order written (so ids follow the description): `buildWorld(services, { tenants: {...}, users: {...}, groups: {...} })`.
// Each name in the description becomes a key of the answer: `world.tenants.alpha.tenantId`, `world.users.bo.token`,
// `world.groups.team`.
import type { Services } from '../../src/services';
import { type UserOptions } from './fixtures';
import {
  addMember,
  insertCaller,
  insertGroup,
  insertOrganisation,
  makeTenantAdmin,
  type Caller,
  type GroupOptions,
} from './organisation-fixtures';

export interface Organisation {
  tenantId: number;
  accountId: number;
}

export interface WorldUser<T extends string> extends Omit<UserOptions, 'tenants'> {
  /** The tenants the user is a member of, with `permissions` (every permission if left out). */
  tenants: readonly T[];
  /** The tenants whose administrator the user is. */
  adminOf?: readonly T[];
}

export interface WorldGroup<T extends string, U extends string> extends Omit<GroupOptions, 'partners'> {
  tenant: T;
  name: string;
  partners?: readonly T[];
  /** Members, each in the group's tenant unless named otherwise; `admin` makes them group administrators. */
  members?: readonly (U | { user: U; tenant?: T; admin?: boolean })[];
}

export interface WorldSpec<T extends string, U extends string, G extends string> {
  /** Tenants by key, each with its name; every tenant gets one account. */
  tenants: Record<T, string>;
  users?: Record<U, WorldUser<NoInfer<T>>>;
  groups?: Record<G, WorldGroup<NoInfer<T>, NoInfer<U>>>;
}

export interface World<T extends string, U extends string, G extends string> {
  tenants: Record<T, Organisation>;
  users: Record<U, Caller>;
  groups: Record<G, number>;
}

export async function buildWorld<T extends string, U extends string = never, G extends string = never>(
  services: Services,
  spec: WorldSpec<T, U, G>,
): Promise<World<T, U, G>> {
  const tenants = {} as Record<T, Organisation>;
  for (const [key, name] of Object.entries(spec.tenants) as [T, string][])
    tenants[key] = await insertOrganisation(services, name);

  const users = {} as Record<U, Caller>;
  for (const [key, user] of Object.entries(spec.users ?? {}) as [U, WorldUser<T>][]) {
    const { tenants: memberOf, adminOf = [], ...options } = user;
    users[key] = await insertCaller(services, { ...options, tenants: memberOf.map((t) => tenants[t].tenantId) });
    for (const tenant of adminOf) await makeTenantAdmin(services, tenants[tenant].tenantId, users[key].id);
  }

  const groups = {} as Record<G, number>;
  for (const [key, group] of Object.entries(spec.groups ?? {}) as [G, WorldGroup<T, U>][]) {
    const { tenant, name, partners = [], members = [], ...options } = group;
    const id = await insertGroup(services, tenants[tenant], name, {
      ...options,
      partners: partners.map((t) => tenants[t].tenantId),
    });
    for (const member of members) {
      const {
        user,
        tenant: memberTenant = tenant,
        admin = false,
      } = typeof member === 'string' ? { user: member } : member;
      await addMember(services, id, users[user].id, tenants[memberTenant].tenantId, admin);
    }
    groups[key] = id;
  }
  return { tenants, users, groups };
}
