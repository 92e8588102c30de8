import type { SsoKind } from '../api/sso';
import type { RegionTarget } from '../config/config';
import { isRegionCode } from '../config/regions';
import type { AvailableRegion } from './probe-regions';
import { KEYS, forgetPendingSession, read, write } from './sign-in-storage';

/*
 * Each step of a sign-in has its own address (/login, /login/region, /login/sso/email, /login/sso/region,
 * /login/2fa), so Back, Forward and a reload meet a step that still knows what it needs. What a step needs is kept
 * in this tab's session storage beside the email (the regions to choose from, the SSO targets); the password is
 * never stored: it stays in this page's memory, and a step reloaded without it asks for it again.
 */

let heldPassword = '';

/** The password typed at the login step, for the step that follows (in memory only: a reload forgets it). */
export const holdPassword = (password: string) => {
  heldPassword = password;
};
export const readHeldPassword = () => heldPassword;

/**
 * A region offered at a step, if its API host is one this build signs in at (the password goes there). The region
 * code is the one that host answered (the Europe host may answer se-sto).
 */
function knownTarget(value: unknown, targets: readonly RegionTarget[]): AvailableRegion | null {
  const candidate = value as AvailableRegion | null;
  const target = targets.find((known) => known.baseUrl === candidate?.baseUrl);
  return target && isRegionCode(candidate?.region) ? { region: candidate.region, baseUrl: target.baseUrl } : null;
}

function readList(key: string): unknown[] {
  try {
    const list: unknown = JSON.parse(read(key) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The regions the region step offers (where the password was found valid). */
export const storeStepRegions = (regions: readonly AvailableRegion[]) =>
  write(KEYS.stepRegions, JSON.stringify(regions.map(({ region, baseUrl }) => ({ region, baseUrl }))));

/** The regions stored for the region step, each one this build knows (else left out). */
export function readStepRegions(targets: readonly RegionTarget[]): AvailableRegion[] {
  return readList(KEYS.stepRegions).flatMap((value) => knownTarget(value, targets) ?? []);
}

/** An SSO target as the SSO region choice keeps it. */
export interface StoredSsoTarget extends AvailableRegion {
  kind: SsoKind;
}

const SSO_KINDS: readonly SsoKind[] = ['oidc', 'saml', 'skolon'];
const isSsoKind = (kind: unknown): kind is SsoKind => SSO_KINDS.includes(kind as SsoKind);

export const storeSsoTargets = (targets: readonly StoredSsoTarget[]) =>
  write(KEYS.ssoTargets, JSON.stringify(targets.map(({ region, baseUrl, kind }) => ({ region, baseUrl, kind }))));

export function readSsoTargets(targets: readonly RegionTarget[]): StoredSsoTarget[] {
  return readList(KEYS.ssoTargets).flatMap((value) => {
    const known = knownTarget(value, targets);
    const kind: unknown = (value as StoredSsoTarget | null)?.kind;
    return known && isSsoKind(kind) ? [{ ...known, kind }] : [];
  });
}

/** A later step was on view: the login form met again (Back) is a return, its heading focused and announced. */
export const markLaterStep = () => write(KEYS.laterStep, '1');
export const cameBackFromLaterStep = () => read(KEYS.laterStep) !== null;
export const clearLaterStep = () => write(KEYS.laterStep, null);

/**
 * 'Log in as someone else': forgets who was signing in (the pending session and its code, the email, the password
 * at hand, a single sign-on under way, the steps' state), keeping what the calling platform asked for (redirect,
 * client type).
 */
export function forgetWhoSignsIn(): void {
  forgetPendingSession();
  holdPassword('');
  for (const key of [KEYS.email, KEYS.ssoAttempt, KEYS.stepRegions, KEYS.ssoTargets, KEYS.laterStep]) write(key, null);
}
