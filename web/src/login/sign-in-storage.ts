import type { Session } from '../api/create-session';
import { isRegionCode, type RegionCode } from '../config/regions';

/** A session created at the login step whose one-time code is still to be proven (carried to /login/2fa). */
export interface PendingSession {
  session: Session;
  region: RegionCode;
  /** API host of the region the session lives in. */
  baseUrl: string;
  /** Client time at which the session's access token runs out (it cannot be refreshed before the code is proven). */
  expiresAt?: number;
}

/** The one-time code this tab last asked for, as the server answered (times in client milliseconds). */
export interface StoredChallenge {
  channel: 'email' | 'sms';
  sentTo: string;
  validUntil: number;
  resendAt: number;
  /** Wrong codes tried against it: the server takes five, then the code is dead. */
  wrongTries: number;
}

export const KEYS = {
  redirectUrl: 'signIn.redirectUrl',
  clientType: 'signIn.clientType',
  region: 'signIn.region',
  pendingSession: 'signIn.pendingSession',
  /** A single sign-on under way at the identity provider (sso-storage.ts). */
  ssoAttempt: 'signIn.ssoAttempt',
  /** The email typed at the login step: 'Log in again' and Back start from it. */
  email: 'signIn.email',
  /** The one-time code asked for on /login/2fa: a reload within its life asks for no new one. */
  otpChallenge: 'signIn.otpChallenge',
  /**
   * A completed sign-in waiting on the passkey offer (/login/passkey): the platform's address with the session,
   * and the access token that adds the passkey (passkey-offer.ts).
   */
  passkeyOffer: 'signIn.passkeyOffer',
  /** Where a completed sign-in goes instead of the platform: 'account' (the account page, `?next=account`). */
  next: 'signIn.next',
  /** The regions the region step (/login/region) offers; its password is never stored (sign-in-steps.ts). */
  stepRegions: 'signIn.stepRegions',
  /** The regions the SSO region choice (/login/sso/region) offers. */
  ssoTargets: 'signIn.ssoTargets',
  /** A step after the login form was on view: Back to the form is a return. */
  laterStep: 'signIn.laterStep',
} as const;

// Session storage can be disabled (privacy modes, sandboxed frames): then the values live for this page only.
const memory = new Map<string, string>();

export function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

export function write(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

export const readRedirectUrl = () => read(KEYS.redirectUrl);
export const storeRedirectUrl = (url: string) => write(KEYS.redirectUrl, url);

export const storeNext = (next: string | null) => write(KEYS.next, next === 'account' ? next : null);

export const readClientType = () => read(KEYS.clientType);
export const storeClientType = (clientType: string | null) => write(KEYS.clientType, clientType);

export function readRegion(): RegionCode | null {
  const region = read(KEYS.region);
  return isRegionCode(region) ? region : null;
}
export const storeRegion = (region: RegionCode) => write(KEYS.region, region);

export function storePendingSession(pending: PendingSession): void {
  write(KEYS.pendingSession, JSON.stringify(pending));
}

export function readPendingSession(): PendingSession | null {
  try {
    const pending = JSON.parse(read(KEYS.pendingSession) ?? 'null') as PendingSession | null;
    const session = pending?.session;
    const complete =
      typeof session?.id === 'string' &&
      typeof session.accessToken === 'string' &&
      typeof session.refreshToken === 'string' &&
      typeof session.factors === 'object' &&
      session.factors !== null &&
      isRegionCode(pending?.region) &&
      typeof pending?.baseUrl === 'string';
    return complete ? pending : null;
  } catch {
    return null;
  }
}

export const readEmail = () => read(KEYS.email) ?? '';
export const storeEmail = (email: string) => write(KEYS.email, email);

export function readChallenge(): StoredChallenge | null {
  try {
    const stored = JSON.parse(read(KEYS.otpChallenge) ?? 'null') as StoredChallenge | null;
    const numbers = [stored?.validUntil, stored?.resendAt, stored?.wrongTries].every(
      (value) => typeof value === 'number' && Number.isFinite(value),
    );
    return stored &&
      (stored.channel === 'email' || stored.channel === 'sms') &&
      typeof stored.sentTo === 'string' &&
      numbers
      ? stored
      : null;
  } catch {
    return null;
  }
}
export const storeChallenge = (challenge: StoredChallenge | null) =>
  write(KEYS.otpChallenge, challenge && JSON.stringify(challenge));

/** Forgets the pending session and its code, keeping what starts the sign-in again (redirect, client type, email). */
export function forgetPendingSession(): void {
  for (const key of [KEYS.pendingSession, KEYS.otpChallenge, KEYS.region]) write(key, null);
}

/** Forgets everything the sign-in put in storage (after the redirect, or when it cannot happen). */
export function clearSignInStorage(): void {
  for (const key of Object.values(KEYS)) write(key, null);
}

/**
 * The sessions whose sign-in a tab finished, in local storage, which every tab of the browser shares (session
 * storage is per tab: a duplicated tab has its own copy of the pending session). Another tab still waiting for the
 * code of such a session can then say the sign-in was finished elsewhere, not that it expired. Only session ids
 * are kept (no token), the last few.
 */
export const FINISHED_KEY = 'signIn.finishedSessions';
const FINISHED_KEPT = 5;

function finishedSessions(): string[] {
  try {
    const list = JSON.parse(window.localStorage.getItem(FINISHED_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function markSignInFinished(sessionId: string): void {
  try {
    const kept = [sessionId, ...finishedSessions().filter((id) => id !== sessionId)].slice(0, FINISHED_KEPT);
    window.localStorage.setItem(FINISHED_KEY, JSON.stringify(kept));
  } catch {
    // Storage may be off: the other tab then says the sign-in ended, as before.
  }
}

/** Whether another tab (or this one, earlier) finished the sign-in of this session. */
export const isSignInFinished = (sessionId: string): boolean => finishedSessions().includes(sessionId);
