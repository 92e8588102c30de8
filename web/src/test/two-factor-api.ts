import { storeEmail, storePendingSession, storeRedirectUrl, storeRegion } from '../login/sign-in-storage';
import { BRAZIL, type FakeCall, type Reply, type Route, sessionBody } from './fake-api';
import { REDIRECT } from './render-app';

/** A session waiting for its email code, in Brazil. */
export const pending = sessionBody({ password: 'verified', otpEmail: 'unverified' });
export const challengePath = `/core/v1/sessions/${pending.id}/challenges`;
export const sessionPath = `/core/v1/sessions/${pending.id}`;

/** The server's answer to a code request: sent to `sentTo`, another allowed after `waitSeconds`. */
export function codeSent(sentTo = 'a***@demo.test', waitSeconds = 30): Reply {
  return {
    status: 201,
    body: {
      sentTo,
      validUntil: new Date(Date.now() + 600_000).toISOString(),
      resendUnavailableUntil: new Date(Date.now() + waitSeconds * 1000).toISOString(),
    },
  };
}

export const verified = sessionBody({ password: 'verified', otpEmail: 'verified' }, pending.id);
export const rotated = { ...verified, accessToken: 'access-new', refreshToken: 'refresh-new' };

/** Challenges answer `challenge`, verification answers `verify`. */
export function twoFactorApi(
  challenge: Route = () => codeSent(),
  verify: Route = () => ({ status: 200, body: rotated }),
): Route {
  return (call) => (call.url.pathname === challengePath ? challenge(call) : verify(call));
}

/** This tab signed in as anna@demo.test and holds the pending session (optionally with its expiry). */
export function givenPendingSession(factors: Record<string, string> = pending.factors, expiresAt?: number) {
  storeRedirectUrl(REDIRECT);
  storeRegion('sa-east-1');
  storeEmail('anna@demo.test');
  storePendingSession({
    session: { ...pending, factors } as never,
    region: 'sa-east-1',
    baseUrl: BRAZIL,
    ...(expiresAt ? { expiresAt } : {}),
  });
}

export const challenges = (calls: FakeCall[]) => calls.filter((call) => call.url.pathname === challengePath);
export const verifications = (calls: FakeCall[]) => calls.filter((call) => call.method === 'PATCH');
