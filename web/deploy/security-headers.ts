// The hosting configuration in code form: renders web/deploy/sign-in.conf.template (the one source of the
// security headers) for nginx, and reads its headers for `vite preview` and the tests, so every host of the build
// sends the same ones.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The template, read from the web app's folder (callers pass it: this file runs as ES module and as CommonJS). */
const template = (webDir: string) => readFileSync(join(webDir, 'deploy', 'sign-in.conf.template'), 'utf8');

export interface HostingValues {
  /** nginx `listen` value, e.g. `8080` or `127.0.0.1:4650`. */
  listen: string;
  /** Folder of the build. */
  root: string;
  /** Origins of the regional APIs the app calls. */
  apiOrigins: readonly string[];
}

const substitute = (text: string, values: Record<string, string>) =>
  text.replace(/\$\{(SIGN_IN_[A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);

const variables = ({ listen, root, apiOrigins }: HostingValues) => ({
  SIGN_IN_LISTEN: listen,
  SIGN_IN_ROOT: root,
  SIGN_IN_API_ORIGINS: apiOrigins.join(' '),
});

/** The server block for nginx, as the official image's template step would write it. */
export function renderServerBlock(webDir: string, values: HostingValues): string {
  return substitute(template(webDir), variables(values));
}

/** The security headers every response carries (name → value), with the API origins filled in. */
export function securityHeaders(webDir: string, apiOrigins: readonly string[]): Record<string, string> {
  const section = /# security headers: begin([\s\S]*?)# security headers: end/.exec(template(webDir))?.[1] ?? '';
  const headers: Record<string, string> = {};
  for (const [, name, value] of section.matchAll(/add_header\s+([\w-]+)\s+"([^"]*)"\s+always;/g)) {
    headers[name] = substitute(value, { SIGN_IN_API_ORIGINS: apiOrigins.join(' ') });
  }
  return headers;
}

/** The hash the Content-Security-Policy allows for inline scripts (the boot script's). */
export function allowedScriptHash(webDir: string): string | null {
  return /'sha256-[A-Za-z0-9+/=]+'/.exec(securityHeaders(webDir, [])['Content-Security-Policy'] ?? '')?.[0] ?? null;
}

/**
 * An nginx main configuration that runs the server block as an ordinary process with everything under `dir`
 * (`nginx -p dir -c dir/nginx.conf -e dir/error.log -g 'daemon off;'`): for tests and benchmarks on this machine.
 */
export function standaloneNginxConf(
  webDir: string,
  dir: string,
  values: HostingValues,
): { main: string; server: string } {
  const server = renderServerBlock(webDir, values);
  const main = `# Generated for a local run; the product's configuration is web/deploy/sign-in.conf.template.
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 512; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log ${join(dir, 'access.log')};
    client_body_temp_path ${join(dir, 'client-body')};
    proxy_temp_path ${join(dir, 'proxy')};
    fastcgi_temp_path ${join(dir, 'fastcgi')};
    uwsgi_temp_path ${join(dir, 'uwsgi')};
    scgi_temp_path ${join(dir, 'scgi')};
    sendfile on;
    include ${join(dir, 'sign-in.conf')};
}
`;
  return { main, server };
}
