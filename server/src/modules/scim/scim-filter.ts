// The SCIM filters provisioning clients actually send: `<attribute> eq "<value>"` (Entra ID and Okta look
// users up by userName or externalId, groups by displayName). Anything else is refused as invalidFilter.
import { scimBadRequest } from './scim-errors';

export interface EqFilter {
  attribute: string;
  value: string;
}

const pattern = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/**
 * `allowed` maps each accepted attribute (lower case, as clients may write it) to the attribute filtered on;
 * `names` are the attributes the error message offers, each once.
 */
export function parseEqFilter(
  filter: string | undefined,
  allowed: Record<string, string>,
  names: readonly string[],
): EqFilter | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = pattern.exec(filter);
  const attribute = match && allowed[match[1].toLowerCase()];
  if (!match || !attribute)
    throw scimBadRequest(`Unsupported filter; use one of ${names.join(', ')} eq "value"`, 'invalidFilter');
  let value: string;
  try {
    // The quoted value is a JSON string (RFC 7644 §3.4.2.2); a broken escape (\x, a short \u) is the client's error.
    value = JSON.parse(`"${match[2]}"`) as string;
  } catch {
    throw scimBadRequest('Invalid filter: the quoted value has an invalid escape', 'invalidFilter');
  }
  return { attribute, value };
}

/** SCIM paging: 1-based startIndex, at most 100 results. */
export function scimPage(query: { startIndex?: number; count?: number }) {
  // Capped so the offset stays a bigint (startIndex=1e23 answered 500); a start past every row is an empty page.
  const startIndex = Math.min(2_147_483_647, Math.max(1, Math.trunc(query.startIndex ?? 1)));
  const count = Math.min(100, Math.max(0, Math.trunc(query.count ?? 100)));
  return { startIndex, count, offset: startIndex - 1 };
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse' as const],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** Booleans as JSON or as the strings some clients send ("True", "false"). */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw scimBadRequest(`${attribute} must be a boolean`);
}
