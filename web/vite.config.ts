import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    sourcemap: true,
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
});
