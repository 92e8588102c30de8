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

/** A form-style array arrives as an array from the validator; a bare value is split defensively. */
const idsOf = (value: number[] | string | number | undefined): number[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value.map(Number) : String(value).split(',').map(Number);

type Operations =
  | 'listCecGroups'
  | 'listCecTemplates'
  | 'listCecMessages'
  | 'sendCecMessage'
  | 'getCecMessage'
  | 'listCecMessageRecipients';

export const externalCommunicationHandlers: PartialHandlers<Operations> = {
  listCecGroups: async (ctx) => ({
    status: 200,
    body: await listCecGroups(ctx.services, requireAuth(ctx), requireTenant(ctx), pageParams(ctx.query)),
  }),
  listCecTemplates: async (ctx) => ({
    status: 200,
    body: await listCecTemplates(ctx.services, requireAuth(ctx), requireTenant(ctx), pageParams(ctx.query)),
  }),
  listCecMessages: async (ctx) => {
    const q = ctx.query;
    const filters = { contentContains: q['content[match]'], groupIds: idsOf(q.externalCommunicationGroupIds) };
    return {
      status: 200,
      body: await listCecMessages(ctx.services, requireAuth(ctx), requireTenant(ctx), filters, pageParams(q)),
    };
  },
  sendCecMessage: async (ctx) => ({
    status: 201,
    body: await sendCecMessage(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
  getCecMessage: async (ctx) => ({
    status: 200,
    body: await getCecMessage(ctx.services, requireAuth(ctx), requireTenant(ctx), ctx.path.messageId),
  }),
  listCecMessageRecipients: async (ctx) => ({
    status: 200,
    body: await listCecMessageRecipients(
      ctx.services,
      requireAuth(ctx),
      requireTenant(ctx),
      ctx.path.messageId,
      pageParams(ctx.query),
    ),
  }),
};
