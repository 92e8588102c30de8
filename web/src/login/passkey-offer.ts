import type { SessionFactors } from '../api/create-session';
import type { RegionTarget } from '../config/config';
import type { RegionCode } from '../config/regions';
import { isAllowedRedirect } from './redirect-allow-list';
import { KEYS, read, write } from './sign-in-storage';

/** Where a session was just created: the region, and its API host. */
export interface SignedInAt {
  region: RegionCode;
  baseUrl: string;
}

/** A sign-in that is complete but waits for the answer to "Log in faster next time with a passkey". */
export interface PasskeyOffer extends SignedInAt {
  /** The session, whose access token adds the passkey to its account. */
  session: { id: string; accessToken: string };
}

/** The offer together with where the sign-in goes once it is answered (the platform, with the session). */
export interface PendingOffer extends PasskeyOffer {
  url: string;
}

/**
 * A passkey is offered after a sign-in with a password (and its code), not after one with a passkey, and not after
 * single sign-on or a coAlert code: there the organisation's identity provider decides how its users sign in, and
 * a passkey would go around it.
 */
export function mayOfferPasskey(factors: SessionFactors): boolean {
  const record = factors as Record<string, unknown>;
  return record.password === 'verified' && !('passkey' in record);
}

export function storePendingOffer(offer: PendingOffer): void {
  write(KEYS.passkeyOffer, JSON.stringify(offer));
}

/**
 * The offer this tab keeps, or null. Storage is not trusted further than the app's own checks: the address must
 * still be an allowed platform page (as completeSignIn checks the stored redirect), and the API host one of this
 * app's regions, the region its own, since the access token is sent there.
 */
export function readPendingOffer(allowList: readonly string[], regions: readonly RegionTarget[]): PendingOffer | null {
  try {
    const offer = JSON.parse(read(KEYS.passkeyOffer) ?? 'null') as PendingOffer | null;
    const complete =
      isAllowedRedirect(offer?.url, allowList) &&
      regions.some((target) => target.baseUrl === offer?.baseUrl && target.region === offer.region) &&
      typeof offer?.session?.id === 'string' &&
      typeof offer.session.accessToken === 'string';
    return complete ? offer : null;
  } catch {
    return null;
  }
}

export const forgetPendingOffer = () => write(KEYS.passkeyOffer, null);
