import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import {
  getCecMessage,
  listCecGroups,
  listCecMessageRecipients,
  listCecMessages,
  listCecTemplates,
  sendCecMessage,
} from './external-communication.service';
import { liftCecCeiling } from './external-communication.ceiling';
import type { ExternalCommunicationDeps } from './external-communication.deps';

/** A form-style array arrives as an array from the validator; a bare value is split defensively. */
const idsOf = (value: number[] | string | number | undefined): number[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.map(Number) : String(value).split(',').map(Number);

type Operations =
  | 'listCecGroups'
  | 'listCecTemplates'
  | 'listCecMessages'
  | 'sendCecMessage'
  | 'getCecMessage'
  | 'listCecMessageRecipients'
  | 'liftCecCeiling';

export const externalCommunicationHandlers = (services: ExternalCommunicationDeps): PartialHandlers<Operations> => ({
  listCecGroups: async (ctx) => ({
    status: 200,
    body: await listCecGroups(services, requireAuth(ctx), requireTenant(ctx), pageParams(ctx.query)),
  }),
  listCecTemplates: async (ctx) => ({
    status: 200,
    body: await listCecTemplates(services, requireAuth(ctx), requireTenant(ctx), pageParams(ctx.query)),
  }),
  listCecMessages: async (ctx) => {
    const q = ctx.query;
    const filters = { contentContains: q['content[match]'], groupIds: idsOf(q.externalCommunicationGroupIds) };
    return {
      status: 200,
      body: await listCecMessages(services, requireAuth(ctx), requireTenant(ctx), filters, pageParams(q)),
    };
  },
  sendCecMessage: async (ctx) => ({
    status: 201,
    body: await sendCecMessage(services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
  liftCecCeiling: async (ctx) => ({
    status: 201,
    body: await liftCecCeiling(services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
  getCecMessage: async (ctx) => ({
    status: 200,
    body: await getCecMessage(services, requireAuth(ctx), requireTenant(ctx), ctx.path.messageId),
  }),
  listCecMessageRecipients: async (ctx) => ({
    status: 200,
    body: await listCecMessageRecipients(
      services,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.path.messageId,
      pageParams(ctx.query),
    ),
  }),
});
