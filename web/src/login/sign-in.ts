import { clientFor } from '../api/client';
import { type Session, createPasswordSession } from '../api/create-session';
import { buildRedirectUrl } from './redirect-url';
import { needsOneTimeCode } from './factors';
import { accessTokenLifetimeMs } from './token-lifetime';
import type { AvailableRegion } from './probe-regions';
import {
  clearSignInStorage,
  markSignInFinished,
  readRedirectUrl,
  readRegion,
  storePendingSession,
  storeRegion,
} from './sign-in-storage';

/** Where the browser goes once a session exists. */
export type NextStep = { kind: 'two-factor' } | { kind: 'redirect'; url: string } | { kind: 'invalid-redirect' };

/**
 * Sends the browser back to the calling platform with the session (spec section 4, steps 7-9).
 * The stored values are removed either way: the sign-in is over.
 */
export function completeSignIn(session: { id: string; refreshToken: string }, allowList: readonly string[]): NextStep {
  const url = buildRedirectUrl(
    readRedirectUrl(),
    { refreshToken: session.refreshToken, sessionId: session.id, region: readRegion() },
    allowList,
  );
  clearSignInStorage();
  markSignInFinished(session.id);
  return url ? { kind: 'redirect', url } : { kind: 'invalid-redirect' };
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
  return completeSignIn(session, allowList);
}
