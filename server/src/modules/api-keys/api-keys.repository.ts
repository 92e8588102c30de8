import type { Db } from '../../db/database';
import type { PageParams } from '../tenants/paging';

const listColumns = ['id', 'name', 'scope', 'created_at'] as const;

/** Newest first, ties by id. Never selects the hash. */
export async function selectApiKeys(db: Db, tenantId: number, page: PageParams) {
  return db
    .selectFrom('api_keys')
    .select(listColumns)
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countApiKeys(db: Db, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Serialises key creation per tenant, so concurrent requests cannot pass the limit together. */
export async function lockTenant(db: Db, tenantId: number): Promise<void> {
  await db.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirst();
}

export interface NewApiKey {
  id: string;
  tenant_id: number;
  name: string;
  key_hash: string;
  created_by: number;
  created_at: Date;
}

export async function insertApiKey(db: Db, key: NewApiKey) {
  return db.insertInto('api_keys').values(key).returning(listColumns).executeTakeFirstOrThrow();
}

export async function deleteTenantApiKey(db: Db, tenantId: number, apiKeyId: string): Promise<boolean> {
  const result = await db.deleteFrom('api_keys').where('tenant_id', '=', tenantId).where('id', '=', apiKeyId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The key with this hash, marking it used. */
export async function touchApiKeyByHash(db: Db, keyHash: string, now: Date) {
  return db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('key_hash', '=', keyHash)
    .returning(['id', 'tenant_id', 'scope'])
    .executeTakeFirst();
}
