import { isRegionCode } from '../config/regions';
import { isAllowedRedirect } from './redirect-allow-list';

export interface RedirectDetails {
  refreshToken: string;
  sessionId: string;
  region: string | null;
}

/**
 * The URL to send the browser back to the calling platform: the stored login page with refreshToken, sessionId
 * and region added as query parameters. Null when the stored URL is not (or no longer) allowed or the region is
 * unknown, which sends the user to /invalid-redirect instead.
 */
export function buildRedirectUrl(
  redirectUrl: string | null,
  details: RedirectDetails,
  allowList: readonly string[],
): string | null {
  if (!isAllowedRedirect(redirectUrl, allowList)) return null;
  if (!isRegionCode(details.region) || !details.refreshToken || !details.sessionId) return null;
  const url = new URL(redirectUrl);
  url.searchParams.set('refreshToken', details.refreshToken);
  url.searchParams.set('sessionId', details.sessionId);
  url.searchParams.set('region', details.region);
  return url.href;
}
