#!/usr/bin/env node
// The floor of each library of the login page: the gzip (level 9) size of a production bundle that imports only
// what the app imports of it. Each bundle includes what the library itself imports (React for the React
// bindings), so the figures overlap and do not add up to the page's size. scripts/check-size.mjs quotes them.
//
//   node web/scripts/library-floors.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const web = resolve(import.meta.dirname, '..');

const CASES = {
  react: `import { createElement, lazy, Suspense, useEffect, useRef, useState } from 'react';
    import { jsx } from 'react/jsx-runtime'; console.log(createElement, lazy, Suspense, useEffect, useRef, useState, jsx);`,
  'react-dom (with react)': `import { createRoot, hydrateRoot } from 'react-dom/client'; console.log(createRoot, hydrateRoot);`,
  'react-router': `import { BrowserRouter, Link, Navigate, Outlet, Route, Routes, useLocation, useNavigate, useSearchParams }
    from 'react-router'; console.log(BrowserRouter, Link, Navigate, Outlet, Route, Routes, useLocation, useNavigate, useSearchParams);`,
  formik: `import { useFormik } from 'formik'; console.log(useFormik);`,
  i18next: `import i18next from 'i18next'; console.log(i18next.createInstance);`,
  'react-i18next': `import { I18nextProvider, initReactI18next, useTranslation } from 'react-i18next';
    console.log(I18nextProvider, initReactI18next, useTranslation);`,
  'openapi-fetch': `import createClient from 'openapi-fetch'; console.log(createClient);`,
};

const work = mkdtempSync(join(tmpdir(), 'sign-in-floors-'));
try {
  for (const [name, code] of Object.entries(CASES)) {
    // The entry sits in web/ so that it resolves web's node_modules.
    const entry = join(web, `.floor-entry-${process.pid}.js`);
    writeFileSync(entry, code);
    try {
      await build({
        configFile: false,
        root: web,
        logLevel: 'silent',
        mode: 'production',
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir: join(work, 'out'),
          emptyOutDir: true,
          target: 'es2022',
          modulePreload: false,
          rolldownOptions: { input: entry, output: { entryFileNames: 'entry.js' } },
        },
      });
    } finally {
      rmSync(entry, { force: true });
    }
    const bytes = gzipSync(readFileSync(join(work, 'out', 'entry.js')), { level: 9 }).length;
    console.log(`${(bytes / 1000).toFixed(1).padStart(6)} kB  ${name}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
