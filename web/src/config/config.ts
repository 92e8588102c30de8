import {
  DEVELOPMENT_API_URLS,
  DEVELOPMENT_LOGIN_PAGES,
  DEVELOPMENT_START_PAGE,
  PLATFORM_LOGIN_PAGES,
  PRODUCTION_API_URLS,
} from './platforms';
import { assertAllowListEntry } from './allow-list-entry';
import type { RegionCode } from './regions';
import { type ViteEnv, viteEnv } from './vite-env';

/** A regional API host the sign-in app may probe and create sessions at. */
export interface RegionTarget {
  /** The region this host answers for by default (a probe may answer another code of the same region). */
  region: RegionCode;
  /** Origin of the region's API, without the /core/v1 prefix. */
  baseUrl: string;
}

export interface AppConfig {
  regions: readonly RegionTarget[];
  redirectAllowList: readonly string[];
  /** Development only: the login page the bare root `/` starts a sign-in for (null in a production build). */
  devStartRedirectUrl: string | null;
}

function defaultApiUrl(region: RegionCode, dev: boolean): string | undefined {
  if (region === 'se-sto') return undefined;
  return dev ? DEVELOPMENT_API_URLS[region] : PRODUCTION_API_URLS[region];
}

function regionTarget(region: RegionCode, configured: string | undefined, dev: boolean): RegionTarget | null {
  const baseUrl = configured?.trim() || defaultApiUrl(region, dev);
  if (!baseUrl) return null;
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`API URL for ${region} is not http(s): ${baseUrl}`);
  return { region, baseUrl: baseUrl.replace(/\/+$/, '') };
}

function parseAllowList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The configured start page must be allowed; the default one is dropped when a replaced allow-list leaves it out. */
function devStartPage(configured: string | undefined, allowList: readonly string[]): string | null {
  const page = configured?.trim();
  if (!page) return allowList.includes(DEVELOPMENT_START_PAGE) ? DEVELOPMENT_START_PAGE : null;
  if (!allowList.includes(page))
    throw new Error(`The development start page is not on the redirect allow-list: ${page}`);
  return page;
}

export function createConfig(env: ViteEnv): AppConfig {
  const dev = Boolean(env.DEV);
  const regions = [
    regionTarget('eu-north-1', env.VITE_API_URL_EU_NORTH_1, dev),
    regionTarget('se-sto', env.VITE_API_URL_SE_STO, dev),
    regionTarget('sa-east-1', env.VITE_API_URL_SA_EAST_1, dev),
  ].filter((target): target is RegionTarget => target !== null);

  const redirectAllowList = (
    env.VITE_REDIRECT_ALLOW_LIST?.trim()
      ? parseAllowList(env.VITE_REDIRECT_ALLOW_LIST)
      : [...PLATFORM_LOGIN_PAGES, ...(dev ? DEVELOPMENT_LOGIN_PAGES : [])]
  ).map(assertAllowListEntry);
  return {
    regions,
    redirectAllowList,
    devStartRedirectUrl: dev ? devStartPage(env.VITE_DEV_START_REDIRECT_URL, redirectAllowList) : null,
  };
}

export const config: AppConfig = createConfig(viteEnv);
