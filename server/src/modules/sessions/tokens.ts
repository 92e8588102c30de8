// Issuing a session's tokens: a short-lived access token (JWT) and an opaque refresh token of 256 bits, stored
// only as a keyed hash. A rotation derives the next refresh token from the presented one under the server's
// secret key, so the immediate predecessor presented again within the grace window yields the very same
// current token: one chain per session, never a second live token.
import { createHmac } from 'node:crypto';
import type { components } from '../../../../generated/core-api';
import type { Executor } from '../../db/database';
import { hasPendingFactor } from '../../http/auth';
import { keyedHash, randomToken } from '../../security/hashing';
import type { SessionsDeps } from './sessions.deps';
import { replaceRefreshToken, settleSession, type Factors } from './sessions.repository';
import { sessionLifetimeMs } from './lifetimes';

export { refreshGraceMs, sessionLifetimeMs } from './lifetimes';

export type SessionBody = components['schemas']['Session'];

/** The order the contract lists a session's factors in (SessionFactors); a stored row keeps jsonb's own order. */
const factorOrder = ['password', 'otpEmail', 'otpSms', 'passkey'];
const rank = (factor: string) => (factorOrder.includes(factor) ? factorOrder.indexOf(factor) : factorOrder.length);
export const inContractOrder = (factors: Factors): Factors =>
  Object.fromEntries(Object.entries(factors).sort(([a], [b]) => rank(a) - rank(b)));

export const refreshTokenPrefix = 'rt_';

export const hashRefreshToken = (services: SessionsDeps, token: string) =>
  keyedHash(services.secretKey, `refresh\0${token}`);

export const newRefreshToken = () => refreshTokenPrefix + randomToken(32);

/** The token that follows `token` in its chain (unguessable without the secret key). */
export const successorRefreshToken = (services: SessionsDeps, token: string) =>
  refreshTokenPrefix +
  createHmac('sha256', services.secretKey).update(`refresh-successor\0${token}`).digest('base64url');

/**
 * The factors a session holds once `answered` was verified, in every module that takes an answer: nothing is left to
 * prove. A one-time code or a passkey answers as the second factor of a password sign-in; an identity provider's
 * answer (single sign-on) stands alone.
 */
export function factorsAfterAnswer(
  answered: 'otpEmail' | 'otpSms' | 'passkey' | 'sso',
  ssoKind?: string,
): Record<string, 'verified'> {
  if (answered === 'sso') return { [ssoKind!]: 'verified' };
  return { password: 'verified', [answered]: 'verified' };
}

/** New tokens for a session outside the rotation (the second factor verified): earlier tokens become history. */
export async function issueTokens(
  services: SessionsDeps,
  db: Executor,
  session: { id: string; userId: number; factors: Factors },
): Promise<SessionBody> {
  const refreshToken = newRefreshToken();
  await replaceRefreshToken(db, session.id, hashRefreshToken(services, refreshToken), services.now().toISOString());
  return sessionBody(services, { ...session, refreshToken });
}

/**
 * The session answer, built here only: an access token (marked pending while a factor waits) beside the refresh
 * token just issued, and the factors in the contract's order.
 */
export async function sessionBody(
  services: SessionsDeps,
  session: { id: string; userId: number | null; refreshToken: string; factors: Factors },
): Promise<SessionBody> {
  const accessToken = await services.tokens.sign({
    userId: session.userId,
    sessionId: session.id,
    pending: hasPendingFactor(session.factors),
  });
  return {
    id: session.id,
    accessToken,
    refreshToken: session.refreshToken,
    factors: inContractOrder(session.factors) as SessionBody['factors'],
  };
}

/**
 * A verified factor settles the session (its factors, when given, and its lifetime as the SQL rule says: as long
 * as any once nothing is left to prove) and gives it new tokens; earlier tokens become history.
 */
export async function settleAndIssueTokens(
  services: SessionsDeps,
  db: Executor,
  session: { id: string; userId: number; factors?: Factors },
): Promise<SessionBody> {
  const now = services.now();
  const factors = await settleSession(db, {
    id: session.id,
    factors: session.factors,
    now,
    settled: new Date(now.getTime() + sessionLifetimeMs),
  });
  return issueTokens(services, db, { id: session.id, userId: session.userId, factors });
}
