import { type RegionCode, isRegionCode } from '../config/regions';
import { type Platform, PLATFORMS } from '../login/platform';
import { read, write } from '../login/sign-in-storage';

/** userId, token and region of an emailed set-password or reset-password link. */
export interface PasswordLink {
  userId: number;
  token: string;
  /** The region that issued the link, the only one its token is sent to; absent in links emailed before. */
  region?: RegionCode;
  /** An invitation's platform: where the user logs in once her password is set; absent in other links. */
  platform?: Platform;
}

/** The contract's token format: 16-256 characters of the URL-safe base64 alphabet. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;
/** A positive id without leading zeros that JavaScript holds exactly. */
const USER_ID = /^[1-9][0-9]{0,15}$/;

/** Reads the link's query; null when a part is missing or malformed (no server could accept it). */
export function parsePasswordLink(search: URLSearchParams): PasswordLink | null {
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const region = search.get('region');
  if (!USER_ID.test(userId) || !Number.isSafeInteger(Number(userId)) || !TOKEN.test(token)) return null;
  // An unknown platform only loses the way onward, not the link.
  const named = search.get('platform');
  const platform = PLATFORMS.find((candidate) => candidate === named);
  const link = { userId: Number(userId), token, ...(platform ? { platform } : {}) };
  if (region === null) return link;
  return isRegionCode(region) ? { ...link, region } : null;
}

const STORED = (kind: string) => `password.${kind}Link`;

/** Whether the address carries a link's parts (they are taken out of it once read). */
export const carriesPasswordLink = (search: URLSearchParams) => search.has('userId') || search.has('token');

/**
 * The link of this page: from the address when it carries one (then kept in this tab's sessionStorage, so the
 * token can leave the address bar and the history at once and a reload still works), else the one kept earlier.
 */
export function takePasswordLink(kind: 'set' | 'reset', search: URLSearchParams): PasswordLink | null {
  if (carriesPasswordLink(search)) {
    const link = parsePasswordLink(search);
    write(STORED(kind), link && JSON.stringify(link));
    return link;
  }
  try {
    const kept = parsePasswordLink(
      new URLSearchParams(Object.entries(JSON.parse(read(STORED(kind)) ?? '{}') as Record<string, string>)),
    );
    return kept;
  } catch {
    return null;
  }
}

/** The address without the link's parts (other parameters, such as `lng`, stay). */
export function withoutPasswordLink(search: URLSearchParams): string {
  const rest = new URLSearchParams(search);
  rest.delete('userId');
  rest.delete('token');
  rest.delete('region');
  const query = rest.toString();
  return query ? `?${query}` : '';
}
