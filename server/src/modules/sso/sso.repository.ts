// SQL of single sign-on: domains, SAML settings, challenges and replay records. Tenant-owned rows are always
// read with their tenant_id.
import type { Transaction } from 'kysely';
import type { Executor } from '../../db/database';
import type { SsoKind } from '../../db/column-types';
import type { DB as Database } from '../../db/types';

export const findSsoDomain = (db: Executor, domain: string) =>
  db
    .selectFrom('sso_domains')
    .select(['domain', 'tenant_id', 'kind'])
    .where('domain', '=', domain.toLowerCase())
    .executeTakeFirst();

/** Operators register a domain once its ownership is proven (there is deliberately no API for it). */
export async function upsertSsoDomain(
  db: Executor,
  row: { domain: string; tenantId: number; kind: SsoKind },
): Promise<void> {
  const domain = row.domain.toLowerCase();
  await db
    .insertInto('sso_domains')
    .values({ domain, tenant_id: row.tenantId, kind: row.kind })
    .onConflict((oc) => oc.column('domain').doUpdateSet({ tenant_id: row.tenantId, kind: row.kind }))
    .execute();
}

export const findSamlSettings = (db: Executor, tenantId: number) =>
  db
    .selectFrom('saml_settings')
    .select(['tenant_id', 'entry_point', 'idp_issuer', 'idp_certificates'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();

export async function upsertSamlSettings(
  db: Executor,
  row: { tenantId: number; entryPoint: string; idpIssuer: string | null; idpCertificates: string[] },
  now: Date,
): Promise<void> {
  const values = {
    entry_point: row.entryPoint,
    idp_issuer: row.idpIssuer,
    idp_certificates: row.idpCertificates,
    updated_at: now,
  };
  await db
    .insertInto('saml_settings')
    .values({ tenant_id: row.tenantId, ...values, created_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
    .execute();
}

/** The user with this email hash, if an active member of the tenant and not deactivated everywhere. */
export const findActiveMember = (db: Executor, tenantId: number, emailHash: string) =>
  db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.email', 'memberships.active'])
    .where('memberships.tenant_id', '=', tenantId)
    .where('users.email_hash', '=', emailHash)
    .where('users.deactivated_at', 'is', null)
    .executeTakeFirst();

export const findUserIdByEmailHash = (db: Executor, emailHash: string) =>
  db.selectFrom('users').select(['id']).where('email_hash', '=', emailHash).executeTakeFirst();

export interface NewChallenge {
  id: string;
  session_id: string;
  tenant_id: number;
  kind: SsoKind;
  redirect_uri: string;
  state?: string | null;
  nonce?: string | null;
  code_challenge?: string | null;
  saml_request_id?: string | null;
  expires_at: Date;
}

/** A new challenge replaces the session's earlier open ones of any SSO kind. */
export async function insertChallenge(db: Executor, row: NewChallenge, now: Date): Promise<void> {
  await db
    .updateTable('sso_challenges')
    .set({ consumed_at: now })
    .where('session_id', '=', row.session_id)
    .where('consumed_at', 'is', null)
    .execute();
  await db.insertInto('sso_challenges').values(row).execute();
}

/** The session's open challenge of this kind with this state, locked. */
export const findOpenChallengeForUpdate = (
  db: Transaction<Database>,
  sessionId: string,
  kind: SsoKind,
  state: string,
) =>
  db
    .selectFrom('sso_challenges')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .where('state', '=', state)
    .where('consumed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();

export const findChallengeBySamlRequestId = (db: Executor, requestId: string) =>
  db
    .selectFrom('sso_challenges')
    .selectAll()
    .where('saml_request_id', '=', requestId)
    .where('kind', '=', 'saml')
    .executeTakeFirst();

/** Marks the SAML challenge answered, once: false when it already was (a replayed response). */
export async function answerSamlChallenge(db: Executor, id: string, tenantId: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('sso_challenges')
    .set({ answered_at: now })
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('answered_at', 'is', null)
    .where('consumed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setSamlCode(
  db: Executor,
  id: string,
  values: { userId: number; codeHash: string; codeExpiresAt: Date },
): Promise<void> {
  await db
    .updateTable('sso_challenges')
    .set({ asserted_user_id: values.userId, code_hash: values.codeHash, code_expires_at: values.codeExpiresAt })
    .where('id', '=', id)
    .execute();
}

export const findSamlChallengeByCodeForUpdate = (db: Transaction<Database>, sessionId: string, codeHash: string) =>
  db
    .selectFrom('sso_challenges')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('kind', '=', 'saml')
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();

export async function consumeChallenge(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('sso_challenges').set({ consumed_at: now }).where('id', '=', id).execute();
}

/** Records an accepted assertion id; false when it was seen before (replay). Expired records are dropped. */
export async function recordSamlAssertion(
  db: Executor,
  tenantId: number,
  assertionId: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.deleteFrom('saml_assertions').where('tenant_id', '=', tenantId).where('expires_at', '<', now).execute();
  const row = await db
    .insertInto('saml_assertions')
    .values({ tenant_id: tenantId, assertion_id: assertionId, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['tenant_id', 'assertion_id']).doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return row !== undefined;
}
