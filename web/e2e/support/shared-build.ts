// One `vite build` for every browser suite of a run. A stack's build differs from another's only in the origins
// it calls (its regions and its demo platform, on free ports), which Vite writes into the JavaScript as plain
// strings. So the e2e project's global set-up builds once with stand-in origins, and each stack copies that build
// and writes its own origins over the stand-ins (startStack). Nothing else in the build depends on them: the
// page's one inline script is fixed (its hash is in the CSP); the precompressed copies of a changed file are made
// again.
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { buildWeb } from './hosting';

/** The stand-in origins of the shared build. `.invalid` names nothing that could answer (RFC 6761). */
export const STAND_IN = {
  europe: 'http://eu-north-1.e2e-stand-in.invalid',
  brazil: 'http://sa-east-1.e2e-stand-in.invalid',
  demo: 'http://demo.e2e-stand-in.invalid',
} as const;

/** The build settings of a stack whose regions and demo platform are at these origins. */
export function buildEnv(origins: Record<keyof typeof STAND_IN, string>): Record<string, string> {
  return {
    VITE_API_URL_EU_NORTH_1: origins.europe,
    VITE_API_URL_SA_EAST_1: origins.brazil,
    VITE_REDIRECT_ALLOW_LIST: ['admin', 'app', 'academy']
      .map((platform) => `${origins.demo}/${platform}/login`)
      .join(','),
  };
}

/** The environment variable through which the global set-up hands the shared build to the suites. */
export const SHARED_BUILD = 'CORE_E2E_WEB_BUILD';

export function buildShared(dist: string, logFile: string): Promise<void> {
  return buildWeb(dist, buildEnv(STAND_IN), logFile);
}

const textFile = /\.(js|html|json|css|webmanifest|txt)$/;

/**
 * Copies the shared build into `dist` with the stack's origins in place of the stand-ins. Fails when a stand-in
 * is not found in the JavaScript or one is left anywhere (a bundler that stopped writing them as plain strings):
 * then the suites must build for themselves again.
 */
export function copySharedBuild(shared: string, dist: string, origins: Record<keyof typeof STAND_IN, string>): void {
  cpSync(shared, dist, { recursive: true });
  const found = new Set<string>();
  for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    if (!textFile.test(file)) continue;
    const path = join(dist, file);
    let text = readFileSync(path, 'utf8');
    let changed = false;
    for (const [name, standIn] of Object.entries(STAND_IN) as [keyof typeof STAND_IN, string][]) {
      if (!text.includes(standIn)) continue;
      found.add(name);
      text = text.split(standIn).join(origins[name]);
      changed = true;
    }
    if (changed) {
      writeFileSync(path, text);
      // The build's precompressed copies (served by nginx's gzip_static and the Brotli map) must say the same.
      if (existsSync(`${path}.gz`)) writeFileSync(`${path}.gz`, gzipSync(text, { level: 9 }));
      if (existsSync(`${path}.br`))
        writeFileSync(`${path}.br`, brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
    }
  }
  const missing = Object.keys(STAND_IN).filter((name) => !found.has(name));
  if (missing.length > 0) throw new Error(`The shared web build has no stand-in for ${missing.join(', ')} (${shared})`);
}
