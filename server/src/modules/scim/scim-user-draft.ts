// A SCIM user as the attributes this service keeps, built from a create/replace body or from the stored row,
// and changed by PATCH operations. Tolerant where provisioning clients differ: op names in any case, paths with
// or without the core schema prefix, booleans as strings, attributes we do not keep are ignored.
import { scimBadRequest } from './scim-errors';
import { scimBoolean } from './scim-filter';
import type { ScimUserRow } from './scim-users.repository';

export interface UserDraft {
  userName: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  title: string | null;
  active: boolean;
  externalId: string | null;
  phonePrimary: string | null;
  phoneSecondary: string | null;
  /** displayName was removed: the name shown is derived again (name, else userName), not kept from before. */
  displayNameRemoved?: boolean;
}

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

const corePrefix = 'urn:ietf:params:scim:schemas:core:2.0:user:';

function text(value: unknown, attribute: string, max = 255): string {
  if (typeof value !== 'string') throw scimBadRequest(`${attribute} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > max) throw scimBadRequest(`${attribute} is too long`);
  return trimmed;
}

/** Phone numbers as the platform keeps them: + and digits, at most 16 characters; others are dropped. */
export function normalisePhone(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(/[\s().-]/g, '');
  return /^\+[0-9]{1,15}$/.test(compact) ? compact : null;
}

function setPhones(draft: UserDraft, list: unknown): void {
  const items = (Array.isArray(list) ? list : [list]).filter(
    (p): p is { value?: unknown; type?: unknown; primary?: unknown } => typeof p === 'object' && p !== null,
  );
  const isPrimary = (p: { type?: unknown; primary?: unknown }) =>
    p.type === 'mobile' || p.primary === true || (typeof p.primary === 'string' && p.primary.toLowerCase() === 'true');
  const ordered = [...items.filter(isPrimary), ...items.filter((p) => !isPrimary(p))];
  draft.phonePrimary = normalisePhone(ordered[0]?.value);
  draft.phoneSecondary = normalisePhone(ordered[1]?.value);
}

export function draftFromRow(row: ScimUserRow): UserDraft {
  return {
    userName: row.email,
    displayName: row.name,
    givenName: row.given_name,
    familyName: row.family_name,
    formatted: row.name_formatted,
    title: row.title,
    active: row.active,
    externalId: row.scim_external_id,
    phonePrimary: row.phone_primary,
    phoneSecondary: row.phone_secondary,
  };
}

export function draftFromInput(input: Record<string, unknown>): UserDraft {
  const draft: UserDraft = {
    userName: text(input.userName, 'userName', 254),
    displayName: null,
    givenName: null,
    familyName: null,
    formatted: null,
    title: null,
    active: input.active === undefined ? true : scimBoolean(input.active, 'active'),
    externalId:
      input.externalId === undefined || input.externalId === null ? null : text(input.externalId, 'externalId'),
    phonePrimary: null,
    phoneSecondary: null,
  };
  for (const key of ['displayName', 'name', 'title', 'phoneNumbers'])
    if (input[key] !== undefined && input[key] !== null)
      applyUserOperation(draft, { op: 'replace', path: key, value: input[key] });
  return draft;
}

export function applyUserOperation(draft: UserDraft, operation: PatchOperation): void {
  const op = operation.op.toLowerCase();
  if (!operation.path) {
    if (op === 'remove') throw scimBadRequest('remove needs a path', 'noTarget');
    if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value))
      throw scimBadRequest('value must be an object of attributes', 'invalidSyntax');
    for (const [path, value] of Object.entries(operation.value)) applyUserOperation(draft, { op, path, value });
    return;
  }
  let path = operation.path.trim().toLowerCase();
  if (path.startsWith(corePrefix)) path = path.slice(corePrefix.length);
  const remove = op === 'remove';
  const value = operation.value;
  const phone = /^phonenumbers\[type eq "([a-z]+)"\](\.value)?$/.exec(path);
  if (phone) {
    const number = remove ? null : normalisePhone(phone[2] ? value : ((value as { value?: unknown })?.value ?? value));
    if (phone[1] === 'mobile') draft.phonePrimary = number;
    else draft.phoneSecondary = number;
    return;
  }
  switch (path) {
    case 'username':
      if (remove) throw cannotRemove(operation.path, 'it is required');
      draft.userName = text(value, 'userName', 254);
      return;
    case 'active':
      // Unassigned, active takes the value a create or a PUT without it gives (RFC 7644 section 3.5.1): active.
      draft.active = remove ? true : scimBoolean(value, 'active');
      return;
    case 'displayname':
      // Unassigned, the name the platform shows is derived again, as for a create without it.
      if (remove) {
        draft.displayName = null;
        draft.displayNameRemoved = true;
      } else draft.displayName = text(value, 'displayName') || null;
      return;
    case 'name.formatted':
      draft.formatted = remove ? null : text(value, path) || null;
      return;
    case 'name.givenname':
      draft.givenName = remove ? null : text(value, path) || null;
      return;
    case 'name.familyname':
      draft.familyName = remove ? null : text(value, path) || null;
      return;
    case 'name': {
      if (remove) {
        draft.formatted = draft.givenName = draft.familyName = null;
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw scimBadRequest('name must be an object');
      const name = value as Record<string, unknown>;
      // add merges the sub-attributes given; replace sets the whole name (RFC 7644 section 3.5.2.1 and 3.5.2.3).
      if (op === 'replace') draft.formatted = draft.givenName = draft.familyName = null;
      for (const [key, part] of Object.entries(name))
        if (part !== undefined && part !== null && ['formatted', 'givenname', 'familyname'].includes(key.toLowerCase()))
          applyUserOperation(draft, { op: 'replace', path: `name.${key}`, value: part });
      return;
    }
    case 'title':
      draft.title = remove ? null : text(value, 'title') || null;
      return;
    case 'externalid':
      draft.externalId = remove ? null : text(value, 'externalId') || null;
      return;
    case 'phonenumbers':
      if (remove) draft.phonePrimary = draft.phoneSecondary = null;
      else setPhones(draft, value);
      return;
    default:
      // The sign-in address is userName, and emails always show it: emails are read-only here. A value sent for them
      // is ignored (as for a PUT, RFC 7643 section 7), since directories send both; removing them is refused.
      if (remove && /^emails(\[|\.|$)/.test(path)) throw cannotRemove(operation.path, 'emails show the userName');
      // Attributes this service does not keep (addresses, extension attributes): nothing is stored, nothing to remove.
      return;
  }
}

const cannotRemove = (path: string, why: string) => scimBadRequest(`${path} cannot be removed: ${why}`, 'mutability');

/** The name the platform shows: displayName, else the formatted name, else given and family name, else the address. */
export function nameOf(draft: UserDraft, fallback?: string): string {
  return draft.displayName || draft.formatted || composedName(draft) || fallback || draft.userName;
}

/** Given and family name, as far as they are known. */
export function composedName(parts: { givenName: string | null; familyName: string | null }): string {
  return [parts.givenName, parts.familyName].filter(Boolean).join(' ');
}
