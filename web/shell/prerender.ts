// The login screen prerendered at build time, once per language (issue 27 §2), as a Vite plugin: after the bundle
// is written, web/src/prerender.tsx renders the app at /login with react-dom/server in each language, and each
// rendering goes into a copy of the built index.html (same stylesheet and script) as
// prerendered/login.<language>.html. The host serves the one in the visitor's language for /login (web/deploy),
// so the form is on screen and can be typed in before any JavaScript has run; the app then hydrates it
// (src/main.tsx). The copies carry no inline script: the host chose the language, and the translations are
// preloaded by a plain <link>. One small script of their own (early-press.js) loads first: a press of Log in
// before the app runs is recorded, and the app replays it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { type Plugin, type ResolvedConfig, createServer } from 'vite';
import { type Locale, escapeHtml, readLocales } from './plugin.ts';
import { prerenderServerConfig } from './prerender-server.ts';

export const PRERENDERED_DIR = 'prerendered';

/** Where the login screen in `language` lands in the build (and what the host's configuration serves for /login). */
export const prerenderedLogin = (language: string) => `${PRERENDERED_DIR}/login.${language}.html`;

/** Where the account page's shell in `language` lands in the build (served for /account). */
export const prerenderedAccount = (language: string) => `${PRERENDERED_DIR}/account.${language}.html`;

type RenderLoginScreen = (language: string, translations: Locale) => Promise<string>;
interface Renderers {
  renderLoginScreen: RenderLoginScreen;
  renderAccountShell: RenderLoginScreen;
}

/** The built index.html turned into the prerendered login screen in `language` (`markup` is #root's content). */
export function loginPage(
  indexHtml: string,
  language: string,
  locale: Locale,
  markup: string,
  earlyPressSrc?: string,
  page: 'login' | 'account' = 'login',
): string {
  const title = page === 'login' ? locale.login.title : locale.account.title;
  const steps: [RegExp, (whole: string) => string][] = [
    [/<html lang="[^"]*">/, () => `<html lang="${language}">`],
    [/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`],
    // The shell's texts and boot script: the host chose the language already, and there is nothing to load.
    [/\s*<script type="application\/json" id="shell-texts">[\s\S]*?<\/script>/, () => ''],
    [/\s*<script>[\s\S]*?<\/script>/, () => ''],
    [
      /<\/title>/,
      (end) =>
        `${end}\n    <link rel="preload" as="fetch" crossorigin="anonymous" href="/locales/${language}.json" />` +
        (earlyPressSrc ? `\n    <script async src="${earlyPressSrc}"></script>` : ''),
    ],
    [
      /<div id="root">[\s\S]*<\/div>(?=\s*<\/body>)/,
      () =>
        `<noscript><p class="noscript" lang="${language}">${escapeHtml(locale.app.noscript)}</p></noscript>` +
        `<div id="root" data-prerendered="${page}">${markup}</div>`,
    ],
  ];
  return steps.reduce((html, [pattern, replace]) => {
    if (!pattern.test(html)) throw new Error(`prerender: index.html has no ${pattern.source}`);
    return html.replace(pattern, replace);
  }, indexHtml);
}

/** Loads web/src/prerender.tsx through Vite's server-side module runner, with the build's mode and settings. */
async function withRenderer(config: ResolvedConfig, use: (render: Renderers) => Promise<void>) {
  const server = await createServer({ ...prerenderServerConfig(config), plugins: [react()] });
  try {
    const module = (await server.ssrLoadModule('/src/prerender.tsx')) as Renderers;
    await use(module);
  } finally {
    await server.close();
  }
}

/**
 * Writes web/shell/early-press.js (without its leading comment) into the build's assets under a name that carries
 * its hash, as the bundle's own files (served as immutable); answers its address.
 */
function writeEarlyPressScript(outDir: string): string {
  const source = readFileSync(join(import.meta.dirname, 'early-press.js'), 'utf8')
    .replace(/^\/\*[\s\S]*?\*\/\s*/, '')
    .trim();
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
  const file = `assets/early-press-${hash}.js`;
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  writeFileSync(join(outDir, file), `${source}\n`);
  return `/${file}`;
}

export function prerenderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sign-in-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(options) {
        const outDir = options.dir ?? config.build.outDir;
        const indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
        mkdirSync(join(outDir, PRERENDERED_DIR), { recursive: true });
        const earlyPress = writeEarlyPressScript(outDir);
        await withRenderer(config, async ({ renderLoginScreen, renderAccountShell }) => {
          for (const [language, locale] of Object.entries(readLocales())) {
            const markup = await renderLoginScreen(language, locale);
            writeFileSync(
              join(outDir, prerenderedLogin(language)),
              loginPage(indexHtml, language, locale, markup, earlyPress),
            );
            // The account page's shell: no early press to record (there is no form before the app runs).
            const shell = await renderAccountShell(language, locale);
            writeFileSync(
              join(outDir, prerenderedAccount(language)),
              loginPage(indexHtml, language, locale, shell, undefined, 'account'),
            );
          }
        });
      },
    },
  };
}
