import { DEVELOPMENT_LOGIN_PAGES } from '../config/platforms';

/** The calling platforms, named under the login title so the user knows where she is signing in to. */
export const PLATFORMS = ['admin', 'app', 'academy'] as const;
export type Platform = (typeof PLATFORMS)[number];

const isPlatform = (name: string | undefined): name is Platform => PLATFORMS.includes(name as Platform);

/**
 * The platform a sign-in returns to, from its (allowed) redirect URL: the first label of the host
 * (admin.example-product.com), else the first segment of the path (the demo platform's /admin/login), else the
 * development stand-ins' order; the academy's clientType wins. Null when none says.
 */
export function platformOf(redirectUrl: string | null, clientType: string | null): Platform | null {
  if (clientType === 'academy') return 'academy';
  if (!redirectUrl) return null;
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return null;
  }
  const host = url.hostname.split('.')[0];
  if (isPlatform(host)) return host;
  const segment = url.pathname.split('/')[1];
  if (isPlatform(segment)) return segment;
  const standIn = DEVELOPMENT_LOGIN_PAGES.slice(0, 3).indexOf(`${url.origin}${url.pathname}`);
  return standIn >= 0 ? PLATFORMS[standIn] : null;
}

/** The login page of `platform` on the redirect allow-list (the first one that names it), or null. */
export function loginPageOf(platform: Platform, allowList: readonly string[]): string | null {
  return allowList.find((entry) => platformOf(entry, null) === platform) ?? null;
}
