import type { Db } from '../../db/database';

const columns = [
  'tenant_id',
  'client_id',
  'client_secret_encrypted',
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'issuer',
  'created_at',
  'updated_at',
] as const;

export const findOidcSettings = (db: Db, tenantId: number) =>
  db.selectFrom('oidc_settings').select(columns).where('tenant_id', '=', tenantId).executeTakeFirst();

export type OidcSettingsRow = NonNullable<Awaited<ReturnType<typeof findOidcSettings>>>;

export interface OidcSettingsValues {
  client_id: string;
  client_secret_encrypted: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  issuer: string;
}

/** Creates or replaces; created_at survives a replacement. */
export async function upsertOidcSettings(
  db: Db,
  tenantId: number,
  values: OidcSettingsValues,
  now: Date,
): Promise<OidcSettingsRow> {
  return db
    .insertInto('oidc_settings')
    .values({ tenant_id: tenantId, ...values, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: now }))
    .returning(columns)
    .executeTakeFirstOrThrow();
}
