import { requireTenant, type PartialHandlers } from '../../http/operations';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
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

const scim = 'application/scim+json' as const;
const operationsOf = (body: { Operations: unknown[] }) => body.Operations as PatchOperation[];

type ScimOperation =
  | 'getScimServiceProviderConfig'
  | 'listScimResourceTypes'
  | 'listScimSchemas'
  | 'listScimUsers'
  | 'createScimUser'
  | 'getScimUser'
  | 'replaceScimUser'
  | 'patchScimUser'
  | 'deleteScimUser'
  | 'listScimGroups'
  | 'createScimGroup'
  | 'getScimGroup'
  | 'replaceScimGroup'
  | 'patchScimGroup'
  | 'deleteScimGroup';

export const scimHandlers: PartialHandlers<ScimOperation> = {
  getScimServiceProviderConfig: async () => ({ status: 200, contentType: scim, body: serviceProviderConfig() }),
  listScimResourceTypes: async ({ services }) => ({
    status: 200,
    contentType: scim,
    body: resourceTypes(services.config),
  }),
  listScimSchemas: async ({ services }) => ({ status: 200, contentType: scim, body: schemas(services.config) }),

  listScimUsers: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimUsers(ctx.services, requireTenant(ctx), ctx.query ?? {}),
  }),
  createScimUser: async (ctx) => ({
    status: 201,
    contentType: scim,
    body: await createScimUser(ctx.services, requireTenant(ctx), ctx.body),
  }),
  getScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await getScimUser(ctx.services, requireTenant(ctx), ctx.path.scimUserId),
  }),
  replaceScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await replaceScimUser(ctx.services, requireTenant(ctx), ctx.path.scimUserId, ctx.body),
  }),
  patchScimUser: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await patchScimUser(ctx.services, requireTenant(ctx), ctx.path.scimUserId, operationsOf(ctx.body)),
  }),
  deleteScimUser: async (ctx) => {
    await deleteScimUser(ctx.services, requireTenant(ctx), ctx.path.scimUserId);
    return { status: 204 };
  },

  listScimGroups: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await listScimGroups(ctx.services, requireTenant(ctx), ctx.query ?? {}),
  }),
  createScimGroup: async (ctx) => ({
    status: 201,
    contentType: scim,
    body: await createScimGroup(ctx.services, requireTenant(ctx), ctx.body),
  }),
  getScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await getScimGroup(ctx.services, requireTenant(ctx), ctx.path.scimGroupId, ctx.query?.excludedAttributes),
  }),
  replaceScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await replaceScimGroup(ctx.services, requireTenant(ctx), ctx.path.scimGroupId, ctx.body),
  }),
  patchScimGroup: async (ctx) => ({
    status: 200,
    contentType: scim,
    body: await patchScimGroup(ctx.services, requireTenant(ctx), ctx.path.scimGroupId, operationsOf(ctx.body)),
  }),
  deleteScimGroup: async (ctx) => {
    await deleteScimGroup(ctx.services, requireTenant(ctx), ctx.path.scimGroupId);
    return { status: 204 };
  },
};
