// The first paint of the sign-in app, as a Vite plugin: index.html gets the inline shell's texts (the loading text
// and title in every language, and the <noscript> text) and its boot script; the translations are served and
// emitted as /locales/<language>.json, so the boot script can preload the one it picked before any JavaScript runs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { inlineBootScript, scriptHash } from './boot-script.ts';

const LOCALES = join(import.meta.dirname, '..', 'src', 'i18n', 'locales');

export type Locale = {
  app: { loading: string; noscript: string };
  login: { title: string };
  account: { title: string };
} & Record<string, unknown>;

export function readLocales(): Record<string, Locale> {
  const files = readdirSync(LOCALES).filter((file) => file.endsWith('.json'));
  return Object.fromEntries(
    files.map((file) => [
      file.slice(0, -'.json'.length),
      JSON.parse(readFileSync(join(LOCALES, file), 'utf8')) as Locale,
    ]),
  );
}

/** The boot script exactly as it is inlined. */
const bootScript = () => inlineBootScript(readFileSync(join(import.meta.dirname, 'boot.js'), 'utf8'));

/** The CSP source that allows the inline boot script. */
export const bootScriptHash = () => scriptHash(bootScript());

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** index.html's placeholders filled in: the texts data block, the boot script and the noscript text. */
export function shellHtml(html: string): string {
  const locales = readLocales();
  const texts = Object.fromEntries(
    Object.entries(locales).map(([code, locale]) => [code, { title: locale.login.title, loading: locale.app.loading }]),
  );
  // A data block is not executed (the CSP does not govern it); `<` is escaped so no text can close it.
  const data = JSON.stringify(texts).replace(/</g, '\\u003c');
  const noscript = Object.entries(locales)
    .map(([code, locale]) => `<p lang="${code}">${escapeHtml(locale.app.noscript)}</p>`)
    .join('');
  return html
    .replace('<!--shell-texts-->', `<script type="application/json" id="shell-texts">${data}</script>`)
    .replace('<!--shell-boot-->', `<script>${bootScript()}</script>`)
    .replace('<!--shell-noscript-->', `<noscript>${noscript}</noscript>`);
}

export function signInShell(options: { requiredScriptHash?: () => string | null } = {}): Plugin {
  return {
    name: 'sign-in-shell',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => shellHtml(html),
    },
    configureServer(server) {
      server.middlewares.use('/locales', (req, res, next) => {
        const code = /^\/([a-z]{2})\.json$/.exec(req.url ?? '')?.[1];
        const locale = code ? readLocales()[code] : undefined;
        if (!locale) return next();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(locale));
      });
    },
    buildStart() {
      // The hosting configuration must allow exactly this boot script, or browsers would refuse to run it.
      const required = options.requiredScriptHash?.();
      if (required && required !== bootScriptHash()) {
        this.error(
          `The Content-Security-Policy in web/deploy allows ${required}, but the boot script (web/shell/boot.js) hashes to ${bootScriptHash()}: update web/deploy.`,
        );
      }
    },
    generateBundle() {
      for (const [code, locale] of Object.entries(readLocales())) {
        this.emitFile({ type: 'asset', fileName: `locales/${code}.json`, source: JSON.stringify(locale) });
      }
    },
  };
}
