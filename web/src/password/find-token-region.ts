import { type ApiFailure, asFailure, latestUnavailable } from '../api/api-failure';
import { clientFor } from '../api/client';
import { type PasswordLinkKind, getPasswordTokenState } from '../api/passwords';
import type { RegionTarget } from '../config/config';
import type { PasswordLink } from './password-link';

/** Where an emailed link's token lives and what state it is in; `invalid` when no region knows it. */
export type TokenLookup = { state: 'valid' | 'expired' | 'used'; target: RegionTarget } | { state: 'invalid' };

/**
 * Asks for the token's state where it lives: the region the link names, and no other (a link naming a region this
 * app does not serve is invalid, and its token is sent nowhere). A link emailed before links named their region
 * asks each region in turn and stops at the first that knows it (valid, expired or used). Every region asked
 * answering `invalid` means the link is invalid. When no region knows it but some could not answer, the link may
 * live there: throws (a 429 first, with the latest wait).
 */
export async function findTokenRegion(
  kind: PasswordLinkKind,
  link: PasswordLink,
  targets: readonly RegionTarget[],
): Promise<TokenLookup> {
  const failures: ApiFailure[] = [];
  const asked = link.region === undefined ? targets : targets.filter((target) => target.region === link.region);
  for (const target of asked) {
    try {
      const state = await getPasswordTokenState(clientFor(target.baseUrl), kind, link.userId, link.token);
      if (state === 'valid' || state === 'expired' || state === 'used') return { state, target };
    } catch (error) {
      failures.push(asFailure(error));
    }
  }
  const rateLimited = failures.filter((failure) => failure.code === 'TOO_MANY_REQUESTS');
  if (rateLimited.length > 0) throw latestUnavailable(rateLimited);
  if (failures.length > 0) throw failures[0];
  return { state: 'invalid' };
}
