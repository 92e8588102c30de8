import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ContactsTable } from '../../db/types';
import type { PageParams } from '../tenants/paging';

export type ContactType = ContactsTable['type'];

export interface ContactFilters {
  accountId?: number;
  type?: ContactType;
}

const columns = ['id', 'account_id', 'name', 'title', 'email', 'phone_number', 'type'] as const;

function tenantContacts(db: Db, tenantId: number, filters: ContactFilters) {
  let query = db.selectFrom('contacts').where('tenant_id', '=', tenantId);
  if (filters.accountId !== undefined) query = query.where('account_id', '=', filters.accountId);
  if (filters.type !== undefined) query = query.where('type', '=', filters.type);
  return query;
}

export async function selectContacts(db: Db, tenantId: number, filters: ContactFilters, page: PageParams) {
  return tenantContacts(db, tenantId, filters)
    .select(columns)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type ContactRow = Awaited<ReturnType<typeof selectContacts>>[number];

export async function countContacts(db: Db, tenantId: number, filters: ContactFilters): Promise<number> {
  const row = await tenantContacts(db, tenantId, filters)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function accountBelongsToTenant(db: Db, tenantId: number, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('tenant_id', '=', tenantId).where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

export interface ContactValues {
  name: string;
  title: string;
  email: string;
  phone_number: string;
  type: ContactType;
}

export async function insertContact(db: Db, tenantId: number, accountId: number, values: ContactValues): Promise<ContactRow> {
  return db
    .insertInto('contacts')
    .values({ tenant_id: tenantId, account_id: accountId, ...values })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateTenantContact(db: Db, tenantId: number, contactId: number, values: Partial<ContactValues>, now: Date): Promise<ContactRow | undefined> {
  return db
    .updateTable('contacts')
    .set({ ...values, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', contactId)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteTenantContact(db: Db, tenantId: number, contactId: number): Promise<boolean> {
  const result = await db.deleteFrom('contacts').where('tenant_id', '=', tenantId).where('id', '=', contactId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
