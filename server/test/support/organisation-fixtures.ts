// Direct inserts for the organisation suites (accounts, groups, members, rooms, contacts) and a request helper
// that signs requests as a user in a tenant.
import request from 'supertest';
import type { GroupFunction, GroupType } from '../../src/db/column-types';
import { buildPermissions } from '../../src/modules/users/permission-flags';
import type { Services } from '../../src/services';
import type { TestContext } from './context';
import { insertTenant, insertUser, signIn, v1, type UserOptions } from './fixtures';

export async function insertAccount(services: Services, tenantId: number, name = 'Head office'): Promise<number> {
  const { id } = await services.db
    .insertInto('accounts')
    .values({ tenant_id: tenantId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A tenant with one account. */
export async function insertOrganisation(
  services: Services,
  name?: string,
): Promise<{ tenantId: number; accountId: number }> {
  const tenantId = await insertTenant(services, name);
  return { tenantId, accountId: await insertAccount(services, tenantId, `${name ?? 'Tenant'} HQ`) };
}

export interface GroupOptions {
  type?: GroupType;
  functions?: GroupFunction[];
  partners?: number[];
  imageUrl?: string | null;
}

export async function insertGroup(
  services: Services,
  org: { tenantId: number; accountId: number },
  name: string,
  options: GroupOptions = {},
): Promise<number> {
  const { id } = await services.db
    .insertInto('groups')
    .values({
      tenant_id: org.tenantId,
      account_id: org.accountId,
      name,
      type: options.type ?? 'default',
      image_url: options.imageUrl ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const tenantId of options.partners ?? [])
    await services.db.insertInto('group_tenants').values({ tenant_id: tenantId, group_id: id }).execute();
  if (options.functions?.length)
    await services.db
      .insertInto('group_functions')
      .values(options.functions.map((f) => ({ group_id: id, function: f })))
      .execute();
  return id;
}

export async function addMember(
  services: Services,
  groupId: number,
  userId: number,
  tenantId: number,
  isAdmin = false,
): Promise<void> {
  await services.db
    .insertInto('group_members')
    .values({ group_id: groupId, user_id: userId, tenant_id: tenantId, is_admin: isAdmin })
    .execute();
}

export async function makeTenantAdmin(services: Services, tenantId: number, userId: number): Promise<void> {
  await services.db
    .updateTable('memberships')
    .set({ is_admin: true })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

/** Permissions with every flag false except the named ones (`area.flag`). */
export const only = (...grants: string[]) => buildPermissions(false, grants);

export interface Caller {
  id: number;
  email: string;
  token: string;
}

export async function insertCaller(services: Services, options: UserOptions = {}): Promise<Caller> {
  const user = await insertUser(services, options);
  const { accessToken } = await signIn(services, user.id);
  return { ...user, token: accessToken };
}

/** Requests as `caller` in `tenantId`, with the version header. */
export function client(ctx: TestContext, caller: Caller, tenantId: number) {
  const auth = (r: request.Test) =>
    r.set(v1).set('authorization', `Bearer ${caller.token}`).set('cosafe-tenant-id', String(tenantId));
  return {
    get: (path: string) => auth(request(ctx.app).get(`/core/v1${path}`)),
    post: (path: string, body: object) => auth(request(ctx.app).post(`/core/v1${path}`)).send(body),
    patch: (path: string, body: object) => auth(request(ctx.app).patch(`/core/v1${path}`)).send(body),
    delete: (path: string) => auth(request(ctx.app).delete(`/core/v1${path}`)),
  };
}

export const expectError = (res: request.Response, httpStatus: number, code: string) => {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status: httpStatus,
    body: { status: 'error', error: { httpStatus, code } },
  });
};
