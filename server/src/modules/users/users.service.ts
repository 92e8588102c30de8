// Profiles, settings and permissions. A user reads and changes their own; reading another user's profile
// follows group visibility (or the tenant administrator role). Settings and permissions stay private.
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { UsersDeps } from './users.deps';
import { seesUser } from '../groups';
import { defaultUserSettings } from './default-settings';
import { buildPermissions, permissionAreas, type UserPermissions } from './permission-flags';
import { toUser, type User, type UserRow } from '../../shared/user-view';
import {
  findTenantUser,
  findUserSettings,
  updateUserProfile,
  upsertUserSettings,
  type ProfileChanges,
} from './users.repository';

type UserSettings = components['schemas']['UserSettings'];
type UpdateUserRequest = components['schemas']['UpdateUserRequest'];
type UpdateUserSettingsRequest = components['schemas']['UpdateUserSettingsRequest'];

const notFound = () => new ApiError('NOT_FOUND', { message: 'User not found' });

/** The target user if the caller may see them: themself, or a visible member of the tenant. Else 404. */
async function visibleUser(services: UsersDeps, auth: AuthContext, tenantId: number, userId: number): Promise<UserRow> {
  const user = await findTenantUser(services.db, tenantId, userId);
  if (!user) throw notFound();
  if (userId === auth.userId) return user;
  if (await seesUser(services.db, auth, tenantId, userId)) return user;
  throw notFound();
}

/** Only the user themself; another visible user answers 403, an invisible one 404 (existence is not revealed). */
async function ownUser(services: UsersDeps, auth: AuthContext, tenantId: number, userId: number): Promise<UserRow> {
  const user = await visibleUser(services, auth, tenantId, userId);
  if (userId !== auth.userId) throw new ApiError('FORBIDDEN', { message: 'Only the user themself may do this' });
  return user;
}

export async function getUserProfile(
  services: UsersDeps,
  auth: AuthContext,
  tenantId: number,
  userId: number,
): Promise<User> {
  return toUser(await visibleUser(services, auth, tenantId, userId), services.config.publicBaseUrl);
}

export async function updateOwnProfile(
  services: UsersDeps,
  auth: AuthContext,
  tenantId: number,
  userId: number,
  body: UpdateUserRequest,
): Promise<User> {
  await ownUser(services, auth, tenantId, userId);
  const changes: ProfileChanges = {};
  if (body.phoneNumbers) changes.phone_secondary = body.phoneNumbers.secondary;
  if (body.unavailableUntil !== undefined)
    changes.unavailable_until = body.unavailableUntil === null ? null : new Date(body.unavailableUntil);
  await updateUserProfile(services.db, userId, changes, services.now());
  const updated = await findTenantUser(services.db, tenantId, userId);
  if (!updated) throw notFound();
  return toUser(updated, services.config.publicBaseUrl);
}

const toSettings = (row: typeof defaultUserSettings): UserSettings => ({
  receiveEmails: row.receive_emails,
  notifications: { checklists: row.notify_checklists, documents: row.notify_documents },
  preferredLanguage: row.preferred_language as UserSettings['preferredLanguage'],
});

export async function getOwnSettings(
  services: UsersDeps,
  auth: AuthContext,
  tenantId: number,
  userId: number,
): Promise<UserSettings> {
  await ownUser(services, auth, tenantId, userId);
  return toSettings((await findUserSettings(services.db, userId)) ?? defaultUserSettings);
}

export async function updateOwnSettings(
  services: UsersDeps,
  auth: AuthContext,
  tenantId: number,
  userId: number,
  body: UpdateUserSettingsRequest,
): Promise<UserSettings> {
  await ownUser(services, auth, tenantId, userId);
  const current = (await findUserSettings(services.db, userId)) ?? defaultUserSettings;
  const next = {
    receive_emails: body.receiveEmails ?? current.receive_emails,
    notify_checklists: body.notifications?.checklists ?? current.notify_checklists,
    notify_documents: body.notifications?.documents ?? current.notify_documents,
    preferred_language: body.preferredLanguage !== undefined ? body.preferredLanguage : current.preferred_language,
  };
  await upsertUserSettings(services.db, userId, next);
  return toSettings(next);
}

/** Stored permissions completed to the contract's shape: a flag not stored is not granted. */
function completePermissions(stored: Record<string, Record<string, boolean | number | null>>): UserPermissions {
  const result = buildPermissions(false) as unknown as Record<string, Record<string, boolean | number | null>>;
  for (const [area, flags] of Object.entries(permissionAreas)) {
    const given = stored[area] ?? {};
    for (const flag of flags as string[]) result[area][flag] = given[flag] === true;
    if ('displayOrder' in given)
      result[area].displayOrder = typeof given.displayOrder === 'number' ? given.displayOrder : null;
  }
  return result as unknown as UserPermissions;
}

export async function getOwnPermissions(
  services: UsersDeps,
  auth: AuthContext,
  tenantId: number,
  userId: number,
): Promise<UserPermissions> {
  await ownUser(services, auth, tenantId, userId);
  // The dispatcher loaded the caller's permissions in this tenant, and the caller is the user.
  return completePermissions(auth.permissions ?? {});
}
