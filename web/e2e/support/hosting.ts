// The built sign-in app as a host serves it: `vite build` into a folder, then Debian's nginx with the product's
// configuration (web/deploy/sign-in.conf.template), on a free loopback port, as an ordinary process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { standaloneNginxConf } from '../../deploy/security-headers';
import { type Spawned, runToEnd, startProcess, waitForHttp } from '../../../test-support/processes';
import { ROOT, WEB } from './stack-paths';

export const NGINX = '/usr/sbin/nginx';

/** `vite build` of the app into `dist` (with a manifest), for the given VITE_* settings. */
export function buildWeb(dist: string, env: Record<string, string>, logFile: string): Promise<void> {
  return runToEnd(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--manifest', '--outDir', dist, '--emptyOutDir'],
    {
      cwd: WEB,
      logFile,
      // Jest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production', ...env },
    },
  );
}

/**
 * Serves `dist` through nginx on 127.0.0.1:`port`, with the CSP's connect-src allowing `apiOrigins`; its files
 * live in `dir`. Resolves once it answers.
 */
export async function startNginx(options: {
  dist: string;
  port: number;
  apiOrigins: readonly string[];
  dir: string;
  logFile: string;
}): Promise<Spawned> {
  mkdirSync(options.dir, { recursive: true });
  const { main, server } = standaloneNginxConf(WEB, options.dir, {
    listen: `127.0.0.1:${options.port}`,
    root: options.dist,
    apiOrigins: options.apiOrigins,
  });
  const config = join(options.dir, 'nginx.conf');
  writeFileSync(config, main);
  writeFileSync(join(options.dir, 'sign-in.conf'), server);
  const nginx = startProcess(
    NGINX,
    ['-p', options.dir, '-c', config, '-e', join(options.dir, 'error.log'), '-g', 'daemon off;'],
    {
      cwd: options.dir,
      env: process.env,
      logFile: options.logFile,
    },
  );
  await waitForHttp(`http://127.0.0.1:${options.port}/login`, nginx, 15_000);
  return nginx;
}
