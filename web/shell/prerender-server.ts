// The settings of the Vite server the build starts to prerender the login screen (prerender.ts), apart from Vite
// so that they can be checked without starting one.
import type { InlineConfig } from 'vite';

/** What the prerender server takes from the build it runs in. */
export interface BuildSettings {
  root: string;
  mode: string;
  envDir: string | false;
  cacheDir: string;
}

/**
 * The cache folder of the prerender server: its own, beside the build's. Sharing the development server's (Vite's
 * default, node_modules/.vite) let a build run beside `npm start` rewrite the dependencies the development app was
 * using ("504 Outdated Optimize Dep": Log in silently did nothing).
 */
export const prerenderCacheDir = (buildCacheDir: string): string => `${buildCacheDir.replace(/[\\/]+$/, '')}-prerender`;

/** The inline configuration of the prerender server (plugins added by the caller). */
export function prerenderServerConfig(build: BuildSettings): InlineConfig {
  return {
    configFile: false,
    root: build.root,
    mode: build.mode,
    envDir: build.envDir,
    cacheDir: prerenderCacheDir(build.cacheDir),
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  };
}
