import type { RegionTarget } from '../config/config';
import { isRegionCode } from '../config/regions';
import { read, write } from './sign-in-storage';
import { isAllowedRedirect } from './redirect-allow-list';

/**
 * The session the account page acts for, as this tab holds it. It comes in one of two ways:
 * - a calling platform opens `/account#region=…&sessionId=…&accessToken=…`: a fragment is never sent to a server
 *   (no access log, no Referer holds it) and the page removes it from the address at once; without a refresh
 *   token the page works while the access token lives (the platform's own refresh token is left alone: a refresh
 *   here would rotate it under the platform's feet);
 * - a sign-in started with `?next=account` ends here instead of at the platform (login/sign-in.ts): the page then
 *   holds the refresh token too, and `returnUrl` is the platform's page the user goes on to, with the session.
 */
export interface AccountSession {
  region: RegionTarget['region'];
  baseUrl: string;
  sessionId: string;
  accessToken: string;
  refreshToken?: string;
  /** The allowed platform page to go on to once done (only after a sign-in here). */
  returnUrl?: string;
}

export const ACCOUNT_SESSION_KEY = 'account.session';

/** A session only for an API host of this app's regions: its access token is sent there. */
function checked(
  value: Partial<AccountSession> | null,
  regions: readonly RegionTarget[],
  allowList: readonly string[],
): AccountSession | null {
  if (!value || !isRegionCode(value.region)) return null;
  const target = regions.find((region) => region.region === value.region && region.baseUrl === value.baseUrl);
  const tokens = typeof value.sessionId === 'string' && value.sessionId !== '' && typeof value.accessToken === 'string';
  if (!target || !tokens || value.accessToken === '') return null;
  if (value.refreshToken !== undefined && typeof value.refreshToken !== 'string') return null;
  if (value.returnUrl !== undefined && !isAllowedRedirect(value.returnUrl, allowList)) return null;
  return value as AccountSession;
}

export function storeAccountSession(session: AccountSession): void {
  write(ACCOUNT_SESSION_KEY, JSON.stringify(session));
}

export function forgetAccountSession(): void {
  write(ACCOUNT_SESSION_KEY, null);
}

/** The session a platform handed over in the address's fragment, or null (a fragment of anything else). */
export function sessionFromFragment(hash: string, regions: readonly RegionTarget[]): AccountSession | null {
  const fields = new URLSearchParams(hash.replace(/^#/, ''));
  const region = fields.get('region');
  const target = regions.find((candidate) => candidate.region === region);
  if (!target) return null;
  return checked(
    {
      region: target.region,
      baseUrl: target.baseUrl,
      sessionId: fields.get('sessionId') ?? undefined,
      accessToken: fields.get('accessToken') ?? undefined,
    },
    regions,
    [],
  );
}

/**
 * The session of this page: one handed over in the fragment replaces what the tab held (the page then removes
 * the fragment from the address), else the one stored in the tab, else null.
 */
export function takeAccountSession(
  location: { hash: string },
  regions: readonly RegionTarget[],
  allowList: readonly string[],
): AccountSession | null {
  if (location.hash) {
    const handed = sessionFromFragment(location.hash, regions);
    if (handed) {
      storeAccountSession(handed);
      return handed;
    }
  }
  try {
    return checked(
      JSON.parse(read(ACCOUNT_SESSION_KEY) ?? 'null') as Partial<AccountSession> | null,
      regions,
      allowList,
    );
  } catch {
    return null;
  }
}
