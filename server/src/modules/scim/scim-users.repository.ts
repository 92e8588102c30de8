// SQL of SCIM users: a SCIM user is a user seen through its membership of the tenant, so every query joins
// memberships on the tenant. Users are shared by tenants (one account per email in a region).
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { emailHash } from '../../security/hashing';
import type { EqFilter } from './scim-filter';

const columns = [
  'users.id',
  'users.email',
  'users.name',
  'users.given_name',
  'users.family_name',
  'users.name_formatted',
  'users.title',
  'users.phone_primary',
  'users.phone_secondary',
  'users.updated_at',
  'memberships.created_at',
  'memberships.active',
  'memberships.scim_external_id',
] as const;

const numericId = (value: string) => (/^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : null);

function tenantUsers(db: Executor, tenantId: number, filter: EqFilter | null) {
  let query = db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .where('memberships.tenant_id', '=', tenantId);
  if (filter?.attribute === 'userName') query = query.where('users.email_hash', '=', emailHash(filter.value));
  if (filter?.attribute === 'externalId') query = query.where('memberships.scim_external_id', '=', filter.value);
  if (filter?.attribute === 'id') query = query.where('users.id', '=', numericId(filter.value) ?? -1);
  // displayName is the name the platform shows; caseExact false (RFC 7643 section 4.1.1), as for groups.
  if (filter?.attribute === 'displayName')
    query = query.where((eb) => eb(eb.fn('lower', ['users.name']), '=', filter.value.toLowerCase()));
  return query;
}

export const selectScimUsers = (
  db: Executor,
  tenantId: number,
  filter: EqFilter | null,
  page: { offset: number; count: number },
) =>
  tenantUsers(db, tenantId, filter).select(columns).orderBy('users.id').limit(page.count).offset(page.offset).execute();

export async function countScimUsers(db: Executor, tenantId: number, filter: EqFilter | null): Promise<number> {
  const row = await tenantUsers(db, tenantId, filter)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ScimUserRow = Awaited<ReturnType<typeof selectScimUsers>>[number];

export async function findScimUser(db: Executor, tenantId: number, id: string): Promise<ScimUserRow | undefined> {
  const userId = numericId(id);
  if (userId === null) return undefined;
  return tenantUsers(db, tenantId, null).select(columns).where('users.id', '=', userId).executeTakeFirst();
}

/** Any user with this email, with how many tenants it belongs to. */
export const findUserByEmail = (db: Executor, email: string) =>
  db
    .selectFrom('users')
    .select([
      'users.id',
      (eb) =>
        eb
          .selectFrom('memberships')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('memberships.user_id', '=', 'users.id')
          .as('memberships'),
    ])
    .where('email_hash', '=', emailHash(email))
    .executeTakeFirst();

export interface Profile {
  name: string;
  given_name: string | null;
  family_name: string | null;
  name_formatted: string | null;
  title: string | null;
  phone_primary: string | null;
  phone_secondary: string | null;
}

export async function insertUser(db: Executor, email: string, profile: Profile): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ email, email_hash: emailHash(email), ...profile })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Executor,
  userId: number,
  values: Partial<Profile> & { email?: string },
  now: Date,
): Promise<void> {
  const { email, ...profile } = values;
  await db
    .updateTable('users')
    .set({ ...profile, ...(email ? { email, email_hash: emailHash(email) } : {}), updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function insertMembership(
  db: Executor,
  row: { tenantId: number; userId: number; permissions: unknown; active: boolean; externalId: string | null },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({
      tenant_id: row.tenantId,
      user_id: row.userId,
      permissions: JSON.stringify(row.permissions),
      active: row.active,
      scim_external_id: row.externalId,
    })
    .execute();
}

export async function updateMembership(
  db: Executor,
  tenantId: number,
  userId: number,
  values: { active: boolean; externalId: string | null },
): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ active: values.active, scim_external_id: values.externalId })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMembership(db: Executor, tenantId: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('memberships')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function countOtherTenants(db: Executor, userId: number, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('tenant_id', '!=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many memberships the user has, and how many are active. */
export async function membershipCounts(db: Executor, userId: number): Promise<{ total: number; active: number }> {
  const row = await db
    .selectFrom('memberships')
    .select([(eb) => eb.fn.countAll<string>().as('total'), sql<string>`count(*) filter (where active)`.as('active')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active) };
}

export async function setDeactivated(db: Executor, userId: number, at: Date | null): Promise<void> {
  let query = db.updateTable('users').set({ deactivated_at: at }).where('id', '=', userId);
  query = at ? query.where('deactivated_at', 'is', null) : query.where('deactivated_at', 'is not', null);
  await query.execute();
}
