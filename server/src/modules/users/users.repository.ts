import type { Db, Executor } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import { userColumns, type UserRow } from '../../shared/user-view';
import type { UserPermissions } from './permission-flags';

const tenantUser = prepared((db, p: Placeholders<{ tenantId: number; userId: number }>) =>
  db
    .selectFrom('users as u')
    .innerJoin('memberships as m', 'm.user_id', 'u.id')
    .select(userColumns.map((c) => `u.${c}` as const))
    .where('m.tenant_id', '=', p.tenantId)
    .where('u.id', '=', p.userId),
);

/** A user who is a member of the tenant, or undefined. */
export async function findTenantUser(db: Db, tenantId: number, userId: number): Promise<UserRow | undefined> {
  const [row] = await tenantUser(db, { tenantId, userId });
  return row;
}

export interface ProfileChanges {
  phone_secondary?: string | null;
  unavailable_until?: Date | null;
}

export async function updateUserProfile(db: Db, userId: number, changes: ProfileChanges, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

const userSettings = prepared((db, p: Placeholders<{ userId: number }>) =>
  db.selectFrom('user_settings').selectAll().where('user_id', '=', p.userId),
);

export async function findUserSettings(db: Db, userId: number) {
  const [row] = await userSettings(db, { userId });
  return row;
}

export interface SettingsValues {
  receive_emails: boolean;
  notify_checklists: boolean;
  notify_documents: boolean;
  preferred_language: string | null;
}

export async function upsertUserSettings(db: Db, userId: number, values: SettingsValues): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/** A member's stored permissions in a tenant, found by address (case-insensitive); locked for a change when asked. */
export function findMembershipByEmail(db: Executor, tenantId: number, email: string, lock: boolean) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.permissions'])
    .where('m.tenant_id', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function storeMemberPermissions(
  db: Executor,
  tenantId: number,
  userId: number,
  permissions: UserPermissions,
): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ permissions: JSON.stringify(permissions) })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}
