import { createHash } from 'node:crypto';

/** The boot script as index.html inlines it: web/shell/boot.js without its leading comment. */
export const inlineBootScript = (source: string) => source.replace(/^\/\*[\s\S]*?\*\/\s*/, '').trim();

/** The Content-Security-Policy source that allows an inline script. */
export const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
