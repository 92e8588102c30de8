import type { Db } from '../../db/database';
import { prepared, type Placeholders } from '../../db/prepared';
import { pageAndTotal } from '../../shared/paging';

const listColumns = ['id', 'name', 'scope', 'created_at'] as const;

/** A page of the tenant's keys, newest first (ties by id), each row with the total. Never selects the hash. */
export const selectApiKeys = prepared((db, p: Placeholders<{ tenantId: number; limit: number; offset: number }>) =>
  pageAndTotal(
    db,
    db.selectFrom('api_keys').where('tenant_id', '=', p.tenantId),
    db
      .selectFrom('api_keys')
      .select(listColumns)
      .where('tenant_id', '=', p.tenantId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset),
  ),
);

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
  /** Null for a key an operator made (no user of the platform). */
  created_by: number | null;
  created_at: Date;
}

export async function insertApiKey(db: Db, key: NewApiKey) {
  return db.insertInto('api_keys').values(key).returning(listColumns).executeTakeFirstOrThrow();
}

export async function deleteTenantApiKey(db: Db, tenantId: number, apiKeyId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const touchKey = prepared((db, p: Placeholders<{ keyHash: string; now: Date }>) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: p.now })
    .where('key_hash', '=', p.keyHash)
    .returning(['id', 'tenant_id', 'scope']),
);

/** The key with this hash, marking it used (every SCIM call). */
export async function touchApiKeyByHash(db: Db, keyHash: string, now: Date) {
  const [row] = await touchKey(db, { keyHash, now });
  return row;
}
