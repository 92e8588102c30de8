import { requireAuth, requireTenant, type PartialHandlers } from '../../http/operations';
import { pageParams } from '../../shared/paging';
import {
  createTenantContact,
  deleteContactOfTenant,
  listTenantContacts,
  updateContactOfTenant,
} from './contacts.service';
import type { ContactsDeps } from './contacts.deps';

export const contactHandlers = (
  services: ContactsDeps,
): PartialHandlers<'listContacts' | 'createContact' | 'updateContact' | 'deleteContact'> => ({
  listContacts: async (ctx) => {
    const filters = { accountId: ctx.query.accountId, type: ctx.query.type };
    return {
      status: 200,
      body: await listTenantContacts(services, requireTenant(ctx), filters, pageParams(ctx.query)),
    };
  },
  createContact: async (ctx) => ({
    status: 201,
    body: await createTenantContact(services, requireAuth(ctx), requireTenant(ctx), ctx.body),
  }),
  updateContact: async (ctx) => ({
    status: 200,
    body: await updateContactOfTenant(services, requireAuth(ctx), requireTenant(ctx), ctx.path.contactId, ctx.body),
  }),
  deleteContact: async (ctx) => {
    await deleteContactOfTenant(services, requireAuth(ctx), requireTenant(ctx), ctx.path.contactId);
    return { status: 204 };
  },
});
