import {
  clearSignInStorage,
  readClientType,
  readRedirectUrl,
  storeClientType,
  storeNext,
  storeRedirectUrl,
} from './sign-in-storage';
import { isAllowedRedirect } from './redirect-allow-list';

/**
 * Decides on /login whether the sign-in may start. A redirectUrl in the query must be on the allow-list; it then
 * starts a fresh sign-in remembered for this tab (with the clientType), forgetting any earlier unfinished one.
 * The same redirectUrl and clientType as the sign-in under way is that sign-in met again (Back from a later step,
 * from the identity provider, a reload): it keeps what it holds, the email above all. Without a redirectUrl, the
 * one remembered earlier in this tab is used, so in-app links back to /login (logo, back links) keep working.
 */
export function acceptRedirect(search: URLSearchParams, allowList: readonly string[]): boolean {
  const requested = search.get('redirectUrl');
  if (requested !== null) {
    if (!isAllowedRedirect(requested, allowList)) {
      clearSignInStorage();
      return false;
    }
    if (requested === readRedirectUrl() && search.get('clientType') === readClientType()) return true;
    clearSignInStorage();
    storeRedirectUrl(requested);
    storeClientType(search.get('clientType'));
    storeNext(search.get('next'));
    return true;
  }
  return isAllowedRedirect(readRedirectUrl(), allowList);
}
