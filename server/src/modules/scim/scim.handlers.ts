import { requireTenant, type PartialHandlers } from '../../http/operations';
import { searchQuery } from './scim-attributes';
import { findResourceType, findSchema, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { scimNotFound } from './scim-errors';
import type { PatchOperation } from './scim-user-draft';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
} from './scim-groups.service';
import {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
} from './scim-users.service';
import { searchScimResources } from './scim-root-search';
import type { ScimDeps } from './scim.deps';
import type { Request } from 'express';
import { clientAddress } from '../../shared/client-address';
import { eventClient } from '../security-events';

const scim = 'application/scim+json' as const;
const operationsOf = (body: { Operations: unknown[] }) => body.Operations as PatchOperation[];
/** The directory's client, for the security event of its change. */
const fromOf = (services: ScimDeps, req: Request) =>
  eventClient(services.config.region, clientAddress(req), req.headers['user-agent']);

type ScimOperation =
  | 'getScimServiceProviderConfig'
  | 'listScimResourceTypes'
  | 'getScimResourceType'
  | 'listScimSchemas'
  | 'getScimSchema'
  | 'listScimUsers'
  | 'searchScimUsers'
  | 'createScimUser'
  | 'getScimUser'
  | 'replaceScimUser'
  | 'patchScimUser'
  | 'deleteScimUser'
  | 'listScimGroups'
  | 'searchScimGroups'
  | 'createScimGroup'
  | 'getScimGroup'
  | 'replaceScimGroup'
  | 'patchScimGroup'
  | 'deleteScimGroup'
  | 'searchScimResources';

export const scimHandlers = (services: ScimDeps): PartialHandlers<ScimOperation> => ({
  getScimServiceProviderConfig: async () => ({ status: 200, contentType: scim, body: serviceProviderConfig() }),
  listScimResourceTypes: async () => ({
    status: 200,
    contentType: scim,
    body: resourceTypes(services.config),
  }),
  getScimResourceType: async ({ path }) => {
    const body = findResourceType(services.config, path.resourceTypeId);
    if (!body) throw scimNotFound('No such resource type');
    return { status: 200, contentType: scim, body };
  },
  listScimSchemas: async () => ({ status: 200, contentType: scim, body: schemas(services.config) }),
  getScimSchema: async ({ path }) => {
    const body = findSchema(services.config, path.schemaUrn);
    if (!body) throw scimNotFound('No such schema');
    return { status: 200, contentType: scim, body };
  },

  listScimUsers: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimUsers(services, requireTenant(ctx), ctx.query ?? {}),
  }),
  searchScimUsers: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimUsers(services, requireTenant(ctx), searchQuery(ctx.body)),
  }),
  createScimUser: async (ctx) => ({
    status: 201,
    contentType: scim,
    body: await createScimUser(services, requireTenant(ctx), ctx.body, ctx.query, fromOf(services, ctx.req)),
  }),
  getScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await getScimUser(services, requireTenant(ctx), ctx.path.scimUserId, ctx.query),
  }),
  replaceScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await replaceScimUser(
      services,
      requireTenant(ctx),
      ctx.path.scimUserId,
      ctx.body,
      ctx.query,
      fromOf(services, ctx.req),
    ),
  }),
  patchScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await patchScimUser(
      services,
      requireTenant(ctx),
      ctx.path.scimUserId,
      operationsOf(ctx.body),
      ctx.query,
      fromOf(services, ctx.req),
    ),
  }),
  deleteScimUser: async (ctx) => {
    await deleteScimUser(services, requireTenant(ctx), ctx.path.scimUserId, fromOf(services, ctx.req));
    return { status: 204 };
  },

  listScimGroups: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimGroups(services, requireTenant(ctx), ctx.query ?? {}),
  }),
  searchScimGroups: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimGroups(services, requireTenant(ctx), searchQuery(ctx.body)),
  }),
  createScimGroup: async (ctx) => ({
    status: 201,
    contentType: scim,
    body: await createScimGroup(services, requireTenant(ctx), ctx.body, ctx.query),
  }),
  getScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await getScimGroup(services, requireTenant(ctx), ctx.path.scimGroupId, ctx.query),
  }),
  replaceScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await replaceScimGroup(services, requireTenant(ctx), ctx.path.scimGroupId, ctx.body, ctx.query),
  }),
  patchScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await patchScimGroup(services, requireTenant(ctx), ctx.path.scimGroupId, operationsOf(ctx.body), ctx.query),
  }),
  deleteScimGroup: async (ctx) => {
    await deleteScimGroup(services, requireTenant(ctx), ctx.path.scimGroupId);
    return { status: 204 };
  },

  searchScimResources: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await searchScimResources(services, requireTenant(ctx), searchQuery(ctx.body)),
  }),
});
