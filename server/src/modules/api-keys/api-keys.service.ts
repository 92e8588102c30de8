// Machine-to-machine keys for SCIM (scope scim), managed by tenant administrators. The secret is `csk_` plus
// 256 random bits in base64url, returned once; only its HMAC (keyed with the region's secret key) is stored.
import { randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import { keyedHash, randomToken } from '../../security/hashing';
import type { ApiKeysDeps } from './api-keys.deps';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';
import { requireTenantAdmin } from '../../shared/tenant-access';
import {
  countApiKeys,
  deleteTenantApiKey,
  insertApiKey,
  lockTenant,
  selectApiKeys,
  touchApiKeyByHash,
} from './api-keys.repository';

type ApiKey = components['schemas']['ApiKey'];
type CreatedApiKey = components['schemas']['CreatedApiKey'];

export const apiKeyLimitPerTenant = 25;
export const apiKeyPrefix = 'csk_';

const toApiKey = (row: { id: string; name: string; scope: 'scim'; created_at: Date }): ApiKey => ({
  apiKeyId: row.id,
  name: row.name,
  scope: row.scope,
  createdAt: row.created_at.toISOString(),
});

const mayManage = (services: ApiKeysDeps, auth: AuthContext, tenantId: number) =>
  requireTenantAdmin(
    services.db,
    tenantId,
    auth.userId,
    'FORBIDDEN',
    'Only administrators of the tenant may manage its api keys',
    auth.tenantAdmin,
  );

export async function listTenantApiKeys(
  services: ApiKeysDeps,
  auth: AuthContext,
  tenantId: number,
  params: PageParams,
): Promise<Page<ApiKey>> {
  await mayManage(services, auth, tenantId);
  const { rows, total } = pageRows(await selectApiKeys(services.db, { tenantId, ...params }));
  return pageOf(rows.map(toApiKey), total, params);
}

export async function createTenantApiKey(
  services: ApiKeysDeps,
  auth: AuthContext,
  tenantId: number,
  name: string,
): Promise<CreatedApiKey> {
  await mayManage(services, auth, tenantId);
  return issueApiKey(services, tenantId, name, auth.userId);
}

/** A new key of the tenant (an administrator's through the API, or an operator's: `createdBy` null). */
export async function issueApiKey(
  services: ApiKeysDeps,
  tenantId: number,
  name: string,
  createdBy: number | null,
): Promise<CreatedApiKey> {
  const key = `${apiKeyPrefix}${randomToken(32)}`;
  const row = await services.db.transaction().execute(async (trx) => {
    await lockTenant(trx, tenantId);
    if ((await countApiKeys(trx, tenantId)) >= apiKeyLimitPerTenant) {
      throw new ApiError('LIMIT_REACHED', { message: `The tenant already has ${apiKeyLimitPerTenant} api keys` });
    }
    return insertApiKey(trx, {
      id: randomUUID(),
      tenant_id: tenantId,
      name,
      key_hash: keyedHash(services.secretKey, key),
      created_by: createdBy,
      created_at: services.now(),
    });
  });
  return { ...toApiKey(row), key };
}

export async function deleteApiKeyOfTenant(
  services: ApiKeysDeps,
  auth: AuthContext,
  tenantId: number,
  apiKeyId: string,
): Promise<void> {
  await mayManage(services, auth, tenantId);
  if (!(await deleteTenantApiKey(services.db, tenantId, apiKeyId)))
    throw new ApiError('NOT_FOUND', { message: 'Api key not found' });
}

/** For the SCIM endpoints only: the tenant and scope a presented key stands for, or null. */
export async function resolveApiKey(
  services: ApiKeysDeps,
  presented: string,
): Promise<{ apiKeyId: string; tenantId: number; scope: 'scim' } | null> {
  if (!presented.startsWith(apiKeyPrefix)) return null;
  const row = await touchApiKeyByHash(services.db, keyedHash(services.secretKey, presented), services.now());
  return row ? { apiKeyId: row.id, tenantId: row.tenant_id, scope: row.scope } : null;
}
