// SCIM authenticates with the tenant's api keys (scope scim) and nothing else; api keys authenticate nothing
// but SCIM (the dispatcher asks here only for operations whose security is scimApiKey).
import type { Request } from 'express';
import { ApiError } from '../../errors';
import { bearerToken } from '../../http/auth';
import type { ScimDeps } from './scim.deps';
import { resolveApiKey } from '../api-keys';

/** The tenant the presented api key belongs to. */
export async function authenticateScimKey(req: Request, services: ScimDeps): Promise<number> {
  const key = await resolveApiKey(services, bearerToken(req));
  if (!key || key.scope !== 'scim')
    throw new ApiError('UNAUTHORIZED', { message: 'A valid api key of scope scim is required' });
  return key.tenantId;
}
