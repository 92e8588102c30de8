import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ContactType } from '../../db/column-types';
import { prepared, type Placeholders } from '../../db/prepared';
import { pageAndTotal } from '../../shared/paging';

export type { ContactType };

export interface ContactFilters {
  accountId?: number;
  type?: ContactType;
}

const columns = ['id', 'account_id', 'name', 'title', 'email', 'phone_number', 'type'] as const;

/** A page of the tenant's contacts by name (ties by id), each row with the total; filtered by account or type if asked. */
export const selectContacts = prepared(
  (
    db,
    p: Placeholders<{ tenantId: number; accountId?: number; type?: ContactType; limit: number; offset: number }>,
    shape: { byAccount: boolean; byType: boolean },
  ) => {
    const contacts = () => {
      let query = db.selectFrom('contacts').where('tenant_id', '=', p.tenantId);
      if (shape.byAccount) query = query.where('account_id', '=', p.accountId);
      if (shape.byType) query = query.where('type', '=', p.type);
      return query;
    };
    return pageAndTotal(
      db,
      contacts(),
      contacts()
        .select(columns)
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .limit(p.limit)
        .offset(p.offset),
    );
  },
);

export type ContactRow = Omit<Awaited<ReturnType<typeof selectContacts>>[number], 'total_count'>;

export async function accountBelongsToTenant(db: Db, tenantId: number, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface ContactValues {
  name: string;
  title: string;
  email: string;
  phone_number: string;
  type: ContactType;
}

export async function insertContact(
  db: Db,
  tenantId: number,
  accountId: number,
  values: ContactValues,
): Promise<ContactRow> {
  return db
    .insertInto('contacts')
    .values({ tenant_id: tenantId, account_id: accountId, ...values })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateTenantContact(
  db: Db,
  tenantId: number,
  contactId: number,
  values: Partial<ContactValues>,
  now: Date,
): Promise<ContactRow | undefined> {
  return db
    .updateTable('contacts')
    .set({ ...values, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', contactId)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteTenantContact(db: Db, tenantId: number, contactId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('contacts')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', contactId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
