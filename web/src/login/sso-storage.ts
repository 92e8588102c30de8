import type { Session } from '../api/create-session';
import type { SsoKind } from '../api/sso';
import { isRegionCode, type RegionCode } from '../config/regions';
import { isCodeVerifier } from './pkce';
import { KEYS, read, write } from './sign-in-storage';

/**
 * A single sign-on under way: what /login/sso needs when the identity provider sends the browser back. Kept in
 * this tab's sessionStorage (with the redirect URL and region of the sign-in), removed as soon as it is read.
 */
export interface SsoAttempt {
  kind: SsoKind;
  region: RegionCode;
  /** API host of the region the session lives in. */
  baseUrl: string;
  /** The session with the unverified SSO factor (its access token authorises the answer). */
  session: Pick<Session, 'id' | 'accessToken'>;
  /** OIDC and Skolon: the PKCE code verifier and the state sent with the challenge. */
  codeVerifier?: string;
  state?: string;
}

const KINDS: readonly string[] = ['oidc', 'saml', 'skolon'];

export function storeSsoAttempt(attempt: SsoAttempt): void {
  write(KEYS.ssoAttempt, JSON.stringify(attempt));
}

function isSsoAttempt(value: unknown): value is SsoAttempt {
  const attempt = value as SsoAttempt | null;
  if (!attempt || !KINDS.includes(attempt.kind) || !isRegionCode(attempt.region) || typeof attempt.baseUrl !== 'string')
    return false;
  if (typeof attempt.session?.id !== 'string' || typeof attempt.session.accessToken !== 'string') return false;
  return (
    attempt.kind === 'saml' ||
    (isCodeVerifier(attempt.codeVerifier) && typeof attempt.state === 'string' && attempt.state.length > 0)
  );
}

/** The attempt of this tab, removed from storage: the identity provider's answer can be used once only. */
export function takeSsoAttempt(): SsoAttempt | null {
  const raw = read(KEYS.ssoAttempt);
  write(KEYS.ssoAttempt, null);
  try {
    const attempt: unknown = JSON.parse(raw ?? 'null');
    return isSsoAttempt(attempt) ? attempt : null;
  } catch {
    return null;
  }
}
