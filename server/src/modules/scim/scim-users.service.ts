// SCIM users of a tenant. A user is shared by the tenants it belongs to, so this tenant's directory changes the
// profile (name, title, phones, address) only of users who belong to no other tenant; `active` and `externalId`
// are the membership's own. Deactivation takes effect at once: calls in this tenant answer 403, and a user
// deactivated in every tenant cannot sign in and loses every session and every unused password link. A member
// who is active here and has no password (nor single sign-on) gets an invitation to choose one.
import type { Executor } from '../../db/database';
import { languageOfTag } from '../../messages/languages';
import type { ScimDeps } from './scim.deps';
import { adoptDirectoryLanguage, revokePasswordLinks, scheduleInvitation } from '../invitations';
import { forgetCredentialsOf, revokeSessionsOf } from '../sessions';
import { recordSecurityEvent, regionOnly, type EventClient } from '../security-events';
import { memberPermissions } from '../users';
import { userSchema } from './scim-discovery';
import { scimBadRequest, scimConflict, scimNotFound } from './scim-errors';
import { project, projectList, type Projection } from './scim-attributes';
import { listResponse, parseEqFilter, scimPage } from './scim-filter';
import {
  applyUserOperation,
  composedName,
  draftFromInput,
  draftFromRow,
  nameOf,
  type PatchOperation,
  type UserDraft,
} from './scim-user-draft';
import * as repo from './scim-users.repository';

/** What a provisioned member may do until an administrator grants more (the seed's ordinary member). */
export const provisionedPermissions = memberPermissions;

const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const userFilters: Record<string, string> = {
  username: 'userName',
  externalid: 'externalId',
  id: 'id',
  'emails.value': 'userName',
  emails: 'userName',
  displayname: 'displayName',
};
export const userFilterNames = ['userName', 'externalId', 'id', 'emails.value', 'displayName'] as const;

export function toScimUser(services: ScimDeps, row: repo.ScimUserRow) {
  const phones = [
    ...(row.phone_primary ? [{ value: row.phone_primary, type: 'mobile', primary: true }] : []),
    ...(row.phone_secondary ? [{ value: row.phone_secondary, type: 'other', primary: false }] : []),
  ];
  return {
    schemas: [userSchema],
    id: String(row.id),
    ...(row.scim_external_id ? { externalId: row.scim_external_id } : {}),
    userName: row.email,
    displayName: row.name,
    ...nameOfRow(row),
    ...(row.title ? { title: row.title } : {}),
    active: row.active,
    emails: [{ value: row.email, type: 'work', primary: true }],
    ...(phones.length ? { phoneNumbers: phones } : {}),
    meta: {
      resourceType: 'User' as const,
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: `${services.config.publicBaseUrl}/core/v1/scim/v2/Users/${row.id}`,
    },
  };
}

/** name as the directory sent its parts; formatted, when not sent, is composed of given and family name. */
function nameOfRow(row: repo.ScimUserRow) {
  const formatted =
    row.name_formatted ?? (composedName({ givenName: row.given_name, familyName: row.family_name }) || null);
  const name = {
    ...(formatted ? { formatted } : {}),
    ...(row.given_name ? { givenName: row.given_name } : {}),
    ...(row.family_name ? { familyName: row.family_name } : {}),
  };
  return Object.keys(name).length ? { name } : {};
}

export async function listScimUsers(
  services: ScimDeps,
  tenantId: number,
  query: { filter?: string; startIndex?: number; count?: number } & Projection,
) {
  const filter = parseEqFilter(query.filter, userFilters, userFilterNames);
  const page = scimPage(query);
  const [rows, total] = await Promise.all([
    repo.selectScimUsers(services.db, tenantId, filter, page),
    repo.countScimUsers(services.db, tenantId, filter),
  ]);
  return projectList(
    listResponse(
      rows.map((r) => toScimUser(services, r)),
      total,
      page.startIndex,
    ),
    userSchema,
    query,
  );
}

async function loadUser(services: ScimDeps, db: Executor, tenantId: number, id: string) {
  const row = await repo.findScimUser(db, tenantId, id);
  if (!row) throw scimNotFound('No such user');
  return row;
}

export const getScimUser = async (services: ScimDeps, tenantId: number, id: string, projection: Projection = {}) =>
  project(toScimUser(services, await loadUser(services, services.db, tenantId, id)), userSchema, projection);

/** Unique violations (externalId, email) become 409 uniqueness. */
async function uniquely<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string })?.code === '23505') throw scimConflict('userName or externalId is already in use');
    throw error;
  }
}

/** A directory's change to a member, as the tenant's security event, in the change's transaction. */
function directoryEvent(
  services: ScimDeps,
  trx: Executor,
  client: EventClient | undefined,
  e: {
    kind: 'member_provisioned' | 'member_updated' | 'member_deactivated' | 'member_removed';
    userId: number;
    tenantId: number;
    reason?: string;
  },
) {
  return recordSecurityEvent(trx, {
    kind: e.kind,
    userId: e.userId,
    tenantId: e.tenantId,
    actor: { type: 'scim' },
    client: client ?? regionOnly(services.config.region),
    details: e.reason ? { reason: e.reason } : {},
  });
}

/** Deactivated everywhere (or in no tenant after a SCIM delete): cannot sign in, sessions end now. */
async function refreshDeactivation(
  trx: Executor,
  userId: number,
  now: Date,
  orphanIsDeactivated = false,
): Promise<void> {
  const { total, active } = await repo.membershipCounts(trx, userId);
  if (active === 0 && (total > 0 || orphanIsDeactivated)) {
    await repo.setDeactivated(trx, userId, now);
    await revokeSessionsOf(trx, userId, 'deactivated', now);
    await revokePasswordLinks(trx, userId);
  } else {
    await repo.setDeactivated(trx, userId, null);
  }
}

function profileOf(draft: UserDraft, fallbackName?: string): repo.Profile {
  return {
    name: nameOf(draft, fallbackName),
    given_name: draft.givenName,
    family_name: draft.familyName,
    name_formatted: draft.formatted,
    title: draft.title,
    phone_primary: draft.phonePrimary,
    phone_secondary: draft.phoneSecondary,
  };
}

export async function createScimUser(
  services: ScimDeps,
  tenantId: number,
  input: Record<string, unknown>,
  projection: Projection = {},
  client?: EventClient,
) {
  const draft = draftFromInput(input);
  if (!emailPattern.test(draft.userName)) throw scimBadRequest('userName must be an email address');
  const language = languageOfTag(
    typeof input.preferredLanguage === 'string'
      ? input.preferredLanguage
      : typeof input.locale === 'string'
        ? input.locale
        : null,
  );
  const now = services.now();
  const userId = await uniquely(() =>
    services.db.transaction().execute(async (trx) => {
      const existing = await repo.findUserByEmail(trx, draft.userName);
      // An account that belongs to no tenant (removed earlier) may be provisioned again; others are someone's.
      if (existing && Number(existing.memberships) > 0) throw scimConflict('A user with this userName exists');
      const id = existing ? existing.id : await repo.insertUser(trx, draft.userName, profileOf(draft));
      if (existing) await repo.updateUser(trx, id, { email: draft.userName, ...profileOf(draft) }, now);
      await repo.insertMembership(trx, {
        tenantId,
        userId: id,
        permissions: provisionedPermissions(),
        active: draft.active,
        externalId: draft.externalId,
      });
      await refreshDeactivation(trx, id, now);
      await directoryEvent(services, trx, client, { kind: 'member_provisioned', userId: id, tenantId });
      // The directory's language for the person (SCIM preferredLanguage, else locale) writes their invitation.
      if (language) await adoptDirectoryLanguage(trx, id, language);
      await scheduleInvitation(services, trx, { userId: id, tenantId });
      return id;
    }),
  );
  services.jobs.wake();
  return getScimUser(services, tenantId, String(userId), projection);
}

/** Writes a changed draft: the membership always, the shared profile only when no other tenant shares the user. */
async function saveDraft(
  services: ScimDeps,
  tenantId: number,
  id: string,
  change: (current: repo.ScimUserRow) => UserDraft,
  projection: Projection,
  client?: EventClient,
) {
  const now = services.now();
  await uniquely(() =>
    services.db.transaction().execute(async (trx) => {
      const current = await loadUser(services, trx, tenantId, id);
      const draft = change(current);
      if (!emailPattern.test(draft.userName)) throw scimBadRequest('userName must be an email address');
      if ((await repo.countOtherTenants(trx, current.id, tenantId)) === 0) {
        const email = draft.userName.toLowerCase() === current.email.toLowerCase() ? undefined : draft.userName;
        const fallback = draft.displayNameRemoved ? undefined : current.name;
        await repo.updateUser(trx, current.id, { ...(email ? { email } : {}), ...profileOf(draft, fallback) }, now);
      }
      await repo.updateMembership(trx, tenantId, current.id, { active: draft.active, externalId: draft.externalId });
      await refreshDeactivation(trx, current.id, now);
      await directoryEvent(services, trx, client, {
        kind: current.active && !draft.active ? 'member_deactivated' : 'member_updated',
        userId: current.id,
        tenantId,
        reason: !current.active && draft.active ? 'reactivated' : undefined,
      });
      // Activated here and still without a password: now is when they need the invitation.
      if (!current.active && draft.active) await scheduleInvitation(services, trx, { userId: current.id, tenantId });
    }),
  );
  services.jobs.wake();
  return getScimUser(services, tenantId, id, projection);
}

export const replaceScimUser = (
  services: ScimDeps,
  tenantId: number,
  id: string,
  input: Record<string, unknown>,
  projection: Projection = {},
  client?: EventClient,
) => saveDraft(services, tenantId, id, () => draftFromInput(input), projection, client);

export const patchScimUser = (
  services: ScimDeps,
  tenantId: number,
  id: string,
  operations: PatchOperation[],
  projection: Projection = {},
  client?: EventClient,
) =>
  saveDraft(
    services,
    tenantId,
    id,
    (current) => {
      const draft = draftFromRow(current);
      for (const operation of operations) applyUserOperation(draft, operation);
      return draft;
    },
    projection,
    client,
  );

export async function deleteScimUser(
  services: ScimDeps,
  tenantId: number,
  id: string,
  client?: EventClient,
): Promise<void> {
  const now = services.now();
  await services.db.transaction().execute(async (trx) => {
    const current = await loadUser(services, trx, tenantId, id);
    await repo.deleteMembership(trx, tenantId, current.id);
    await directoryEvent(services, trx, client, { kind: 'member_removed', userId: current.id, tenantId });
    await refreshDeactivation(trx, current.id, now, true);
    // The last membership gone: the account's credentials go with it, so an address provisioned again starts
    // with none (no old password, passkey or session signs in as the new person).
    if ((await repo.membershipCounts(trx, current.id)).total === 0) await forgetCredentialsOf(trx, current.id);
  });
}
