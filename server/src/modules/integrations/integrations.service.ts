// The tenant's OIDC client at its identity provider. Only tenant administrators read or change it; the client
// secret is write-only: encrypted at rest (secret-box.ts), never returned, never logged.
import type { components } from '../../../../generated/core-api';
import { ApiError, type ValidationIssue } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { IntegrationsDeps } from './integrations.deps';
import { isIP } from 'node:net';
import { outboundPolicy } from '../../security/outbound';
import { requireTenantAdmin } from '../../shared/tenant-access';
import { findOidcSettings, upsertOidcSettings, type OidcSettingsRow } from './integrations.repository';
import { decryptSecret, encryptSecret } from './secret-box';

type OidcSettings = components['schemas']['OidcSettings'];
type OidcSettingsInput = components['schemas']['OidcSettingsInput'];

const secretPurpose = 'oidc-client-secret';

const toOidcSettings = (row: OidcSettingsRow): OidcSettings => ({
  clientId: row.client_id,
  authorizationEndpoint: row.authorization_endpoint,
  tokenEndpoint: row.token_endpoint,
  jwksUri: row.jwks_uri,
  issuer: row.issuer,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const mayManage = (services: IntegrationsDeps, auth: AuthContext, tenantId: number) =>
  requireTenantAdmin(
    services.db,
    tenantId,
    auth.userId,
    'FORBIDDEN',
    'Only administrators of the tenant may manage its single sign-on settings',
  );

const urlFields = ['authorizationEndpoint', 'tokenEndpoint', 'jwksUri', 'issuer'] as const;

/**
 * The schema proves each is a URI; the identity provider must also be reached over https (http outside
 * production), and a host written as an internal address (loopback, private, link-local, unique-local, ...) or
 * as localhost is refused here already, unless `allowList` admits it (outside production). Names that resolve to
 * internal addresses are refused when the request is made (security/outbound.ts).
 */
export function endpointIssues(
  input: Pick<OidcSettingsInput, (typeof urlFields)[number]>,
  allowInsecureHttp: boolean,
  allowList: string[] = [],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const policy = outboundPolicy(allowList);
  for (const field of urlFields) {
    let url: URL | null;
    try {
      url = new URL(input[field]);
    } catch {
      url = null;
    }
    const schemes = allowInsecureHttp ? ['https:', 'http:'] : ['https:'];
    if (!url || !schemes.includes(url.protocol) || url.username || url.password || url.hash) {
      issues.push({
        where: 'body',
        path: `/${field}`,
        message: `must be an ${allowInsecureHttp ? 'http(s)' : 'https'} URL without credentials or fragment`,
      });
      continue;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const internal = isIP(host)
      ? !policy.allows(host)
      : /(^|\.)localhost\.?$/.test(host) && !policy.allows('127.0.0.1');
    if (internal) {
      issues.push({
        where: 'body',
        path: `/${field}`,
        message: 'must not point to a loopback, private, link-local or other internal address',
      });
    }
  }
  return issues;
}

export async function getTenantOidcSettings(
  services: IntegrationsDeps,
  auth: AuthContext,
  tenantId: number,
): Promise<OidcSettings> {
  await mayManage(services, auth, tenantId);
  const row = await findOidcSettings(services.db, tenantId);
  if (!row) throw new ApiError('NOT_FOUND', { message: 'The tenant has no OIDC settings' });
  return toOidcSettings(row);
}

export async function putTenantOidcSettings(
  services: IntegrationsDeps,
  auth: AuthContext,
  tenantId: number,
  input: OidcSettingsInput,
): Promise<OidcSettings> {
  await mayManage(services, auth, tenantId);
  const issues = endpointIssues(input, services.config.sso.allowInsecureHttp, services.config.outboundAllowList);
  if (input.clientId.trim() === '') issues.push({ where: 'body', path: '/clientId', message: 'must not be blank' });
  if (input.clientSecret.trim() === '')
    issues.push({ where: 'body', path: '/clientSecret', message: 'must not be blank' });
  if (issues.length) throw new ApiError('BAD_REQUEST', { message: 'The OIDC settings are not valid', issues });
  return toOidcSettings(await saveOidcSettings(services, tenantId, input));
}

/** Stores validated settings, the client secret encrypted (also used by the development seed). */
export function saveOidcSettings(
  services: IntegrationsDeps,
  tenantId: number,
  input: OidcSettingsInput,
): Promise<OidcSettingsRow> {
  return upsertOidcSettings(
    services.db,
    tenantId,
    {
      client_id: input.clientId,
      client_secret_encrypted: encryptSecret(services.secretKey, secretPurpose, String(tenantId), input.clientSecret),
      authorization_endpoint: input.authorizationEndpoint,
      token_endpoint: input.tokenEndpoint,
      jwks_uri: input.jwksUri,
      issuer: input.issuer,
    },
    services.now(),
  );
}

/** For the sign-in flow only: the settings with the client secret in the clear, or undefined. */
export async function loadOidcClient(services: IntegrationsDeps, tenantId: number) {
  const row = await findOidcSettings(services.db, tenantId);
  if (!row) return undefined;
  return {
    clientId: row.client_id,
    clientSecret: decryptSecret(services.secretKey, secretPurpose, String(tenantId), row.client_secret_encrypted),
    authorizationEndpoint: row.authorization_endpoint,
    tokenEndpoint: row.token_endpoint,
    jwksUri: row.jwks_uri,
    issuer: row.issuer,
  };
}
