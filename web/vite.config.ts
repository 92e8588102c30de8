import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import { PRODUCTION_API_URLS } from './src/config/platforms.ts';
import { allowedScriptHash, securityHeaders } from './deploy/security-headers.ts';
import { signInShell } from './shell/plugin.ts';
import { precompressBuild } from './shell/precompress.ts';
import { prerenderLogin } from './shell/prerender.ts';

const web = import.meta.dirname;

/** The API origins a build calls: what the CSP's connect-src must allow (the same variables the app reads). */
function apiOrigins(mode: string): string[] {
  const env = loadEnv(mode, web, 'VITE_API_URL_');
  const urls = [
    env.VITE_API_URL_EU_NORTH_1 || PRODUCTION_API_URLS['eu-north-1'],
    env.VITE_API_URL_SE_STO,
    env.VITE_API_URL_SA_EAST_1 || PRODUCTION_API_URLS['sa-east-1'],
  ];
  return urls.filter((url): url is string => Boolean(url?.trim())).map((url) => new URL(url).origin);
}

export default defineConfig(({ mode }) => ({
  // The prerendered login screens are written after the bundle, and compressed with everything else last.
  plugins: [
    react(),
    signInShell({ requiredScriptHash: () => allowedScriptHash(web) }),
    prerenderLogin(),
    precompressBuild(),
  ],
  server: { port: 5173, strictPort: true },
  // The preview of a build sends the headers its production host sends (web/deploy/sign-in.conf.template).
  // Vite's own preview port (4173, or the next free one; --port picks another): never the development server's.
  preview: { headers: securityHeaders(web, apiOrigins(mode)) },
  build: {
    target: 'es2022',
    // No source maps in the build: they would ship the app's whole source to every visitor for nothing.
    sourcemap: false,
    // Every browser that runs ES2022 preloads modules natively; the polyfill would only add weight.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the login page imports statically goes into the entry chunk. Left alone, the bundler moves
        // modules the lazy pages share with it (React, i18next…) into separate common chunks, which the login
        // page must load anyway and which compress worse apart (about 2 kB gzip more; see scripts/check-size.mjs).
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
}));
