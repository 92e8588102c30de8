import { clientFor } from '../api/client';
import { type Session, createPasswordSession } from '../api/create-session';
import { storeAccountSession } from './account-session';
import { buildRedirectUrl } from './redirect-url';
import { needsOneTimeCode } from './factors';
import { type PasskeyOffer, type SignedInAt, mayOfferPasskey } from './passkey-offer';
import { accessTokenLifetimeMs } from './token-lifetime';
import type { AvailableRegion } from './probe-regions';
import {
  KEYS,
  clearSignInStorage,
  markSignInFinished,
  read,
  readRedirectUrl,
  readRegion,
  storePendingSession,
  storeRegion,
} from './sign-in-storage';

/** The only place a sign-in may go before the platform is the account page (kept here, in the sign-in's own chunk). */
const readNext = (): 'account' | null => (read(KEYS.next) === 'account' ? 'account' : null);

/**
 * Where the browser goes once a session exists. A redirect after a sign-in with a password may carry the offer
 * to add a passkey, made first on a device that can hold one (app/follow-next-step.ts).
 */
export type NextStep =
  | { kind: 'two-factor' }
  | { kind: 'redirect'; url: string; passkeyOffer?: PasskeyOffer }
  | { kind: 'invalid-redirect' }
  /** The account page (a sign-in started with `?next=account`), which holds the session (account-session.ts). */
  | { kind: 'account' };

/**
 * Sends the browser back to the calling platform with the session (spec section 4, steps 7-9), or first to the
 * account page when the sign-in was started for it (`?next=account`; it goes on to the platform from there).
 * The stored values are removed either way: the sign-in is over. With `signedInAt` (where the session lives), a
 * sign-in with a password carries the passkey offer.
 */
export function completeSignIn(session: Session, allowList: readonly string[], signedInAt?: SignedInAt): NextStep {
  const platform = readRedirectUrl();
  const next = readNext();
  const url = buildRedirectUrl(
    platform,
    { refreshToken: session.refreshToken, sessionId: session.id, region: readRegion() },
    allowList,
  );
  clearSignInStorage();
  markSignInFinished(session.id);
  if (!url) return { kind: 'invalid-redirect' };
  if (next === 'account' && signedInAt && platform) {
    const { id: sessionId, accessToken, refreshToken } = session;
    storeAccountSession({ ...signedInAt, sessionId, accessToken, refreshToken, returnUrl: platform });
    return { kind: 'account' };
  }
  if (!signedInAt || !mayOfferPasskey(session.factors)) return { kind: 'redirect', url };
  const passkeyOffer = { ...signedInAt, session: { id: session.id, accessToken: session.accessToken } };
  return { kind: 'redirect', url, passkeyOffer };
}

/** Creates the session in the chosen region; a session with an unverified one-time code goes on to /login/2fa. */
export async function signInAt(
  target: AvailableRegion,
  email: string,
  password: string,
  allowList: readonly string[],
): Promise<NextStep> {
  const session = await createPasswordSession(clientFor(target.baseUrl), email.trim(), password);
  return continueWithSession(session, target, allowList);
}

/** What follows a new (or newly verified) session of `target`'s region: /login/2fa, or back to the platform. */
export function continueWithSession(session: Session, target: AvailableRegion, allowList: readonly string[]): NextStep {
  storeRegion(target.region);
  if (needsOneTimeCode(session.factors)) {
    const lifetime = accessTokenLifetimeMs(session.accessToken);
    storePendingSession({
      session,
      region: target.region,
      baseUrl: target.baseUrl,
      ...(lifetime === null ? {} : { expiresAt: Date.now() + lifetime }),
    });
    return { kind: 'two-factor' };
  }
  return completeSignIn(session, allowList, { region: target.region, baseUrl: target.baseUrl });
}
