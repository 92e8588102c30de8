// Support and data-protection contacts of the tenant's accounts. Every member reads them; only tenant
// administrators change them (403 INSUFFICIENT_PRIVILEGES for others, as the spec names for contact changes).
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { ContactsDeps } from './contacts.deps';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';
import { requireTenantAdmin } from '../../shared/tenant-access';
import {
  accountBelongsToTenant,
  deleteTenantContact,
  insertContact,
  selectContacts,
  updateTenantContact,
  type ContactFilters,
  type ContactRow,
  type ContactValues,
} from './contacts.repository';

type Contact = components['schemas']['Contact'];
type CreateContactRequest = components['schemas']['CreateContactRequest'];
type UpdateContactRequest = components['schemas']['UpdateContactRequest'];

const toContact = (row: ContactRow): Contact => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  title: row.title,
  email: row.email,
  phoneNumber: row.phone_number,
  type: row.type,
});

const mayChange = (services: ContactsDeps, auth: AuthContext, tenantId: number) =>
  requireTenantAdmin(
    services.db,
    tenantId,
    auth.userId,
    'INSUFFICIENT_PRIVILEGES',
    'Not allowed to change contacts',
    auth.tenantAdmin,
  );

const notFound = () => new ApiError('NOT_FOUND', { message: 'Contact not found' });

export async function listTenantContacts(
  services: ContactsDeps,
  tenantId: number,
  filters: ContactFilters,
  params: PageParams,
): Promise<Page<Contact>> {
  const values = { tenantId, accountId: filters.accountId, type: filters.type, ...params };
  const shape = { byAccount: filters.accountId !== undefined, byType: filters.type !== undefined };
  const { rows, total } = pageRows(await selectContacts(services.db, values, shape));
  return pageOf(rows.map(toContact), total, params);
}

export async function createTenantContact(
  services: ContactsDeps,
  auth: AuthContext,
  tenantId: number,
  body: CreateContactRequest,
): Promise<Contact> {
  await mayChange(services, auth, tenantId);
  if (!(await accountBelongsToTenant(services.db, tenantId, body.accountId)))
    throw new ApiError('NOT_FOUND', { message: 'Account not found' });
  const values: ContactValues = {
    name: body.name,
    title: body.title,
    email: body.email,
    phone_number: body.phoneNumber,
    type: body.type,
  };
  return toContact(await insertContact(services.db, tenantId, body.accountId, values));
}

export async function updateContactOfTenant(
  services: ContactsDeps,
  auth: AuthContext,
  tenantId: number,
  contactId: number,
  body: UpdateContactRequest,
): Promise<Contact> {
  await mayChange(services, auth, tenantId);
  const values: Partial<ContactValues> = {};
  if (body.name !== undefined) values.name = body.name;
  if (body.title !== undefined) values.title = body.title;
  if (body.email !== undefined) values.email = body.email;
  if (body.phoneNumber !== undefined) values.phone_number = body.phoneNumber;
  if (body.type !== undefined) values.type = body.type;
  const row = await updateTenantContact(services.db, tenantId, contactId, values, services.now());
  if (!row) throw notFound();
  return toContact(row);
}

export async function deleteContactOfTenant(
  services: ContactsDeps,
  auth: AuthContext,
  tenantId: number,
  contactId: number,
): Promise<void> {
  await mayChange(services, auth, tenantId);
  if (!(await deleteTenantContact(services.db, tenantId, contactId))) throw notFound();
}
