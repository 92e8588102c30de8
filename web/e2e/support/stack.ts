import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildWeb, startNginx } from './hosting';
import { copyRegionTemplate } from './region-template';
import { SHARED_BUILD, buildEnv, copySharedBuild } from './shared-build';
import { type Spawned, freePort, startProcess, stopProcess, waitForHttp } from '../../../test-support/processes';
import { ROOT, TEST_OUTPUT } from './stack-paths';

export { ROOT, TEST_OUTPUT, WEB } from './stack-paths';

export interface Region {
  code: 'eu-north-1' | 'sa-east-1';
  url: string;
}

/** Everything one end-to-end run talks to, each on a free loopback port. */
export interface Stack {
  europe: Region;
  brazil: Region;
  /** Origin of the built sign-in web app. */
  web: string;
  /** Origin of the demo calling platform. */
  demo: string;
  /** Issuer of the development identity provider (scripts/dev-idp.mjs), when started (`devIdp: true`). */
  idp: string | null;
  /** The build, made with a manifest (for the size check). */
  dist: string;
  logs: string;
  stop: () => Promise<void>;
}

/**
 * Starts two regions of the core API (fresh databases, development seed), builds the web app against them and
 * serves the build through Debian's nginx with the product's hosting configuration (web/deploy), and starts the
 * demo calling platform (with `devIdp`, also the development identity provider for
 * 'Log in with SSO'). `stop` ends every process it started and removes its files.
 */
export async function startStack(options: { devIdp?: boolean } = {}): Promise<Stack> {
  const temp = mkdtempSync(join(tmpdir(), 'sign-in-e2e-'));
  // A folder per test file: browser suites may run side by side (Jest's workers), each with its own regions.
  const suite = basename(expect.getState().testPath ?? 'stack').replace(/\.e2e\.test\.ts$/, '');
  const logs = join(TEST_OUTPUT, 'e2e-logs', suite);
  mkdirSync(logs, { recursive: true });
  const [europePort, brazilPort, webPort, demoPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const europe: Region = { code: 'eu-north-1', url: `http://localhost:${europePort}` };
  const brazil: Region = { code: 'sa-east-1', url: `http://localhost:${brazilPort}` };
  const web = `http://localhost:${webPort}`;
  const demo = `http://localhost:${demoPort}`;
  const dist = join(temp, 'web-dist');
  // 'Log in with SSO': Europe's demo seed binds sso.demo.test to the development identity provider, which sends
  // the browser back to this build's /login/sso (the one redirect URI on Europe's allow-list).
  const idpPort = options.devIdp ? await freePort() : null;
  const idp = idpPort ? `http://127.0.0.1:${idpPort}` : null;
  const ssoReturn = `${web}/login/sso`;

  const processes: Spawned[] = [];
  const stop = async () => {
    await Promise.all(processes.map((spawned) => stopProcess(spawned)));
    rmSync(temp, { recursive: true, force: true });
  };

  try {
    const regions = [
      { region: europe, port: europePort },
      { region: brazil, port: brazilPort },
    ].map(({ region, port }) => {
      // From the run's migrated data directory when its set-up made one (region-template.ts).
      copyRegionTemplate(join(temp, region.code));
      const spawned = startProcess(process.execPath, ['--import', 'tsx', join('server', 'src', 'main.ts')], {
        cwd: ROOT,
        logFile: join(logs, `${region.code}.log`),
        env: {
          ...process.env,
          NODE_ENV: 'development',
          REGION: region.code,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_BASE_URL: region.url,
          DATA_DIR: join(temp, region.code),
          CORS_ORIGINS: `${web},${demo}`,
          SIGN_IN_APP_URL: web,
          LOG_LEVEL: 'warn',
          ...(idp && region.code === 'eu-north-1' ? { DEV_SSO_ISSUER: idp, REDIRECT_ALLOW_LIST: ssoReturn } : {}),
        },
      });
      processes.push(spawned);
      return { region, spawned };
    });

    // The run's shared build with this stack's origins (shared-build.ts), or a build of its own when the suite
    // runs without the e2e project's set-up.
    const origins = { europe: europe.url, brazil: brazil.url, demo };
    const shared = process.env[SHARED_BUILD];
    const build = shared
      ? Promise.resolve().then(() => copySharedBuild(shared, dist, origins))
      : buildWeb(dist, buildEnv(origins), join(logs, 'vite-build.log'));

    const demoPlatform = startProcess(process.execPath, [join(ROOT, 'scripts', 'demo-platform.mjs')], {
      cwd: ROOT,
      logFile: join(logs, 'demo-platform.log'),
      env: {
        ...process.env,
        DEMO_PLATFORM_PORT: String(demoPort),
        DEMO_PLATFORM_URL: demo,
        SIGN_IN_APP_URL: web,
        REGION_API_URLS: `${europe.code}=${europe.url},${brazil.code}=${brazil.url}`,
      },
    });
    processes.push(demoPlatform);

    const devIdp = idp
      ? startProcess(process.execPath, [join(ROOT, 'scripts', 'dev-idp.mjs')], {
          cwd: ROOT,
          logFile: join(logs, 'dev-idp.log'),
          env: {
            ...process.env,
            NODE_ENV: 'development',
            DEV_IDP_PORT: String(idpPort),
            DEV_SSO_ISSUER: idp,
            DEV_SSO_REDIRECT_URIS: ssoReturn,
          },
        })
      : null;
    if (devIdp) processes.push(devIdp);

    await build;
    processes.push(
      await startNginx({
        dist,
        port: webPort,
        apiOrigins: [europe.url, brazil.url],
        dir: join(temp, 'nginx'),
        logFile: join(logs, 'nginx.log'),
      }),
    );
    await Promise.all([
      ...regions.map(({ region, spawned }) =>
        waitForHttp(`${region.url.replace('localhost', '127.0.0.1')}/healthz`, spawned, 200_000),
      ),
      waitForHttp(`${demo.replace('localhost', '127.0.0.1')}/app/login`, demoPlatform, 20_000),
      ...(devIdp ? [waitForHttp(`${idp}/.well-known/openid-configuration`, devIdp, 20_000)] : []),
    ]);
    return { europe, brazil, web, demo, idp, dist, logs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
