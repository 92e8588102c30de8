// SCIM groups: groups of the tenant that its directory created, named and filled by the directory. Members
// must be users of the tenant; hand-made groups are never visible or changeable here.
import type { Executor } from '../../db/database';
import type { ScimDeps } from './scim.deps';
import { groupSchema } from './scim-discovery';
import { scimBadRequest, scimConflict, scimNotFound } from './scim-errors';
import { project, projectList, returns, type Projection } from './scim-attributes';
import { listResponse, parseEqFilter, scimPage } from './scim-filter';
import type { PatchOperation } from './scim-user-draft';
import * as repo from './scim-groups.repository';

type Db = Executor;
export const groupFilters: Record<string, string> = { displayname: 'displayName', externalid: 'externalId', id: 'id' };
export const groupFilterNames = ['displayName', 'externalId', 'id'] as const;
const corePrefix = 'urn:ietf:params:scim:schemas:core:2.0:group:';

async function render(services: ScimDeps, tenantId: number, rows: repo.ScimGroupRow[], withMembers: boolean) {
  const usersBase = `${services.config.publicBaseUrl}/core/v1/scim/v2/Users`;
  const members = withMembers
    ? await repo.selectMembers(
        services.db,
        tenantId,
        rows.map((r) => r.id),
      )
    : [];
  return rows.map((row) => ({
    schemas: [groupSchema],
    id: String(row.id),
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.name,
    ...(withMembers
      ? {
          members: members
            .filter((m) => m.group_id === row.id)
            .map((m) => ({ value: String(m.id), $ref: `${usersBase}/${m.id}`, display: m.name })),
        }
      : {}),
    meta: {
      resourceType: 'Group' as const,
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: `${services.config.publicBaseUrl}/core/v1/scim/v2/Groups/${row.id}`,
    },
  }));
}

const withMembers = (projection: Projection) => returns('members', groupSchema, projection);

export async function listScimGroups(
  services: ScimDeps,
  tenantId: number,
  query: { filter?: string; startIndex?: number; count?: number } & Projection,
) {
  const filter = parseEqFilter(query.filter, groupFilters, groupFilterNames);
  const page = scimPage(query);
  const [rows, total] = await Promise.all([
    repo.selectScimGroups(services.db, tenantId, filter, page),
    repo.countScimGroups(services.db, tenantId, filter),
  ]);
  return projectList(
    listResponse(await render(services, tenantId, rows, withMembers(query)), total, page.startIndex),
    groupSchema,
    query,
  );
}

export async function getScimGroup(services: ScimDeps, tenantId: number, id: string, projection: Projection = {}) {
  const row = await repo.findScimGroup(services.db, tenantId, id);
  if (!row) throw scimNotFound('No such group');
  return project((await render(services, tenantId, [row], withMembers(projection)))[0], groupSchema, projection);
}

/** The numeric ids in `[{ value }]` (for removal: ids that are no members are simply not there). */
const idsOf = (value: unknown) =>
  (Array.isArray(value) ? value : [value])
    .map((m) => String((m as { value?: unknown })?.value ?? ''))
    .filter((id) => /^[1-9][0-9]{0,15}$/.test(id))
    .map(Number);

/** Member ids from `[{ value }]`; every one must be a user of the tenant. */
async function memberIds(db: Db, tenantId: number, value: unknown): Promise<number[]> {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = list.map((m) => String((m as { value?: unknown })?.value ?? ''));
  const numeric = ids.map((id) => (/^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : NaN));
  const known = await repo.tenantUserIds(
    db,
    tenantId,
    numeric.filter((n) => !Number.isNaN(n)),
  );
  const unknown = ids.filter((id, i) => !known.has(numeric[i]));
  if (unknown.length) throw scimBadRequest(`Not users of this tenant: ${unknown.slice(0, 10).join(', ')}`);
  return [...new Set(numeric)];
}

const text = (value: unknown, attribute: string) => {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 255)
    throw scimBadRequest(`${attribute} must be a non-empty string`);
  return value.trim();
};

async function uniquely<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string })?.code === '23505') throw scimConflict('externalId is already in use');
    throw error;
  }
}

export async function createScimGroup(
  services: ScimDeps,
  tenantId: number,
  input: Record<string, unknown>,
  projection: Projection = {},
) {
  const id = await uniquely(() =>
    services.db.transaction().execute(async (trx) => {
      const members = await memberIds(trx, tenantId, input.members);
      const externalId = typeof input.externalId === 'string' ? input.externalId : null;
      const groupId = await repo.insertScimGroup(trx, {
        tenantId,
        accountId: await repo.accountForGroups(trx, tenantId),
        name: text(input.displayName, 'displayName'),
        externalId,
      });
      await repo.addMembers(trx, tenantId, groupId, members);
      return groupId;
    }),
  );
  return getScimGroup(services, tenantId, String(id), projection);
}

export async function replaceScimGroup(
  services: ScimDeps,
  tenantId: number,
  id: string,
  input: Record<string, unknown>,
  projection: Projection = {},
) {
  await uniquely(() =>
    services.db.transaction().execute(async (trx) => {
      const row = await repo.findScimGroup(trx, tenantId, id, true);
      if (!row) throw scimNotFound('No such group');
      const members = await memberIds(trx, tenantId, input.members);
      const externalId = typeof input.externalId === 'string' ? input.externalId : null;
      await repo.updateScimGroup(
        trx,
        tenantId,
        row.id,
        { name: text(input.displayName, 'displayName'), externalId },
        services.now(),
      );
      await repo.removeMembers(trx, tenantId, row.id, 'all');
      await repo.addMembers(trx, tenantId, row.id, members);
    }),
  );
  return getScimGroup(services, tenantId, id, projection);
}

export async function patchScimGroup(
  services: ScimDeps,
  tenantId: number,
  id: string,
  operations: PatchOperation[],
  projection: Projection = {},
) {
  await uniquely(() =>
    services.db.transaction().execute(async (trx) => {
      const row = await repo.findScimGroup(trx, tenantId, id, true);
      if (!row) throw scimNotFound('No such group');
      const next = { name: row.name, externalId: row.external_id };
      const apply = async (op: string, rawPath: string | undefined, value: unknown): Promise<void> => {
        if (!rawPath) {
          // As for users (RFC 7644 section 3.5.2.2).
          if (op === 'remove') throw scimBadRequest('remove needs a path', 'noTarget');
          if (typeof value !== 'object' || value === null || Array.isArray(value))
            throw scimBadRequest('value must be an object of attributes', 'invalidSyntax');
          for (const [key, v] of Object.entries(value)) await apply(op, key, v);
          return;
        }
        let path = rawPath.trim().toLowerCase();
        if (path.startsWith(corePrefix)) path = path.slice(corePrefix.length);
        const one = /^members\[value eq "([^"]*)"\]$/.exec(path);
        if (one) {
          if (op !== 'remove') throw scimBadRequest('Only remove takes a member filter', 'invalidPath');
          await repo.removeMembers(trx, tenantId, row.id, /^[1-9][0-9]{0,15}$/.test(one[1]) ? [Number(one[1])] : []);
        } else if (path === 'members') {
          if (op === 'remove')
            await repo.removeMembers(trx, tenantId, row.id, value === undefined ? 'all' : idsOf(value));
          else {
            const ids = await memberIds(trx, tenantId, value);
            if (op === 'replace') await repo.removeMembers(trx, tenantId, row.id, 'all');
            await repo.addMembers(trx, tenantId, row.id, ids);
          }
        } else if (path === 'displayname') {
          // The group's name: it may be replaced, not removed (RFC 7644 section 3.5.2.2).
          if (op === 'remove') throw scimBadRequest(`${rawPath} cannot be removed: it is required`, 'mutability');
          next.name = text(value, 'displayName');
        } else if (path === 'id') {
          // id is readOnly: Okta repeats it in a path-less replace, which changes nothing; another value is refused.
          if (op === 'remove' || String(value) !== String(row.id))
            throw scimBadRequest(`${rawPath} cannot be changed: it is readOnly`, 'mutability');
        } else if (path === 'externalid') {
          next.externalId = op === 'remove' ? null : text(value, 'externalId');
        } else {
          throw scimBadRequest(`Unsupported path ${rawPath}`, 'invalidPath');
        }
      };
      for (const operation of operations) await apply(operation.op.toLowerCase(), operation.path, operation.value);
      await repo.updateScimGroup(trx, tenantId, row.id, next, services.now());
    }),
  );
  return getScimGroup(services, tenantId, id, projection);
}

export async function deleteScimGroup(services: ScimDeps, tenantId: number, id: string): Promise<void> {
  const row = await repo.findScimGroup(services.db, tenantId, id);
  if (!row || !(await repo.deleteScimGroup(services.db, tenantId, row.id))) throw scimNotFound('No such group');
}
