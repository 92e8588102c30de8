#!/usr/bin/env node
// `npm start`: region eu-north-1 (Sweden/Europe) on :4000, region sa-east-1 (Brazil) on :4001, each with its own
// embedded database under data/<region>, the sign-in web app on :5173, the demo calling platform on :4100 and the
// development identity provider on :4300 (single sign-on for sso.demo.test in eu-north-1). It says "Ready" with
// the URLs only once every one of them answers. Ctrl-C stops everything.
//
// Ports and the data folder can be moved (two checkouts side by side, tests): EU_NORTH_1_PORT, SA_EAST_1_PORT,
// WEB_PORT, DEMO_PLATFORM_PORT, DEV_IDP_PORT, DATA_ROOT. LOG_FORMAT=json shows the servers' JSON logs as they are.
import './node-version.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { blockedPortProblem } from './blocked-ports.mjs';
import { createFormatter } from './dev-log.mjs';
import { regionExecArgv, regionMemoryEnv } from './region-runtime.mjs';

const root = resolve(import.meta.dirname, '..');
const port = (name, fallback) => Number(process.env[name] || fallback);
const ports = {
  eu: port('EU_NORTH_1_PORT', 4000),
  sa: port('SA_EAST_1_PORT', 4001),
  web: port('WEB_PORT', 5173),
  demo: port('DEMO_PLATFORM_PORT', 4100),
  idp: port('DEV_IDP_PORT', 4300),
};
// A port browsers refuse would start a server that answers curl and never the browser: stop with one line.
const blocked = blockedPortProblem({
  EU_NORTH_1_PORT: ports.eu,
  SA_EAST_1_PORT: ports.sa,
  WEB_PORT: ports.web,
  DEMO_PLATFORM_PORT: ports.demo,
  DEV_IDP_PORT: ports.idp,
});
if (blocked) {
  console.error(blocked);
  process.exit(1);
}
const dataRoot = resolve(root, process.env.DATA_ROOT || 'data');
const regions = [
  { region: 'eu-north-1', label: 'Sweden/Europe', port: ports.eu },
  { region: 'sa-east-1', label: 'Brazil', port: ports.sa },
];
const webUrl = `http://localhost:${ports.web}`;
const demoUrl = `http://localhost:${ports.demo}`;
// The development identity provider ('Log in with SSO', scripts/dev-idp.mjs) and where it sends the browser back.
const devIdp = {
  issuer: process.env.DEV_SSO_ISSUER ?? `http://127.0.0.1:${ports.idp}`,
  redirectUri: `${webUrl}/login/sso`,
};
const hasWeb = existsSync(join(root, 'web', 'index.html'));
const format = createFormatter();
const children = [];
let stopping = false;

function run(name, command, args, options) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(prefix + format(line) + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${prefix}exited (${signal ?? code}); stopping everything`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

for (const r of regions) {
  run(r.region, process.execPath, [...regionExecArgv, '--import', 'tsx', join('server', 'src', 'main.ts')], {
    env: {
      ...regionMemoryEnv,
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      REGION: r.region,
      PORT: String(r.port),
      PUBLIC_BASE_URL: `http://localhost:${r.port}`,
      DATA_DIR: join(dataRoot, r.region),
      SIGN_IN_APP_URL: process.env.SIGN_IN_APP_URL ?? webUrl,
      // The sign-in web app and the demo calling platform call the API from the browser.
      CORS_ORIGINS: process.env.CORS_ORIGINS ?? `${webUrl},${demoUrl}`,
      // Europe's demo data binds sso.demo.test to the development identity provider (server/src/demo/seed-sso.ts).
      ...(r.region === 'eu-north-1'
        ? { DEV_SSO_ISSUER: devIdp.issuer, REDIRECT_ALLOW_LIST: process.env.REDIRECT_ALLOW_LIST ?? devIdp.redirectUri }
        : {}),
    },
  });
}
run('dev-idp', process.execPath, [join('scripts', 'dev-idp.mjs')], {
  env: {
    ...process.env,
    DEV_IDP_PORT: String(ports.idp),
    DEV_SSO_ISSUER: devIdp.issuer,
    DEV_SSO_REDIRECT_URIS: devIdp.redirectUri,
  },
});
if (hasWeb) {
  const demoPages = ['admin', 'app', 'academy'].map((p) => `${demoUrl}/${p}/login`);
  run(
    'web',
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', String(ports.web), '--strictPort'],
    {
      cwd: join(root, 'web'),
      env: {
        ...process.env,
        VITE_API_URL_EU_NORTH_1: process.env.VITE_API_URL_EU_NORTH_1 ?? `http://localhost:${ports.eu}`,
        VITE_API_URL_SA_EAST_1: process.env.VITE_API_URL_SA_EAST_1 ?? `http://localhost:${ports.sa}`,
        // The built-in development allow-list names the demo platform on its usual port only.
        ...(ports.demo !== 4100 && !process.env.VITE_REDIRECT_ALLOW_LIST
          ? { VITE_REDIRECT_ALLOW_LIST: demoPages.join(',') }
          : {}),
        // The bare root / of the development server starts a sign-in for this page (the first URL printed below).
        VITE_DEV_START_REDIRECT_URL: process.env.VITE_DEV_START_REDIRECT_URL ?? `${demoUrl}/app/login`,
      },
    },
  );
  // Stand-ins for the admin panel, the main app and the academy: where the sign-in app sends the browser back.
  run('demo-platform', process.execPath, [join(root, 'scripts', 'demo-platform.mjs')], {
    env: {
      ...process.env,
      DEMO_PLATFORM_PORT: String(ports.demo),
      DEMO_PLATFORM_URL: demoUrl,
      SIGN_IN_APP_URL: webUrl,
      REGION_API_URLS: regions.map((r) => `${r.region}=http://localhost:${r.port}`).join(','),
    },
  });
}

// What must answer before the URLs are worth showing: each region's readiness (database migrated, demo data
// seeded, contract compiled), the identity provider's discovery document, the web app's page, the demo platform.
const checks = [
  ...regions.map((r) => ({ name: `region ${r.region}`, url: `http://localhost:${r.port}/readyz` })),
  { name: 'development identity provider', url: `${devIdp.issuer}/.well-known/openid-configuration` },
  ...(hasWeb
    ? [
        { name: 'sign-in web app', url: `${webUrl}/login` },
        { name: 'demo calling platform', url: `${demoUrl}/app/login` },
      ]
    : []),
];
const startedAt = Date.now();
const seconds = () => ((Date.now() - startedAt) / 1000).toFixed(1);
console.log(`Starting ${checks.map((c) => c.name).join(', ')}…`);

async function answers(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
  return res?.status === 200;
}

async function waitUntilReady() {
  const pending = new Set(checks);
  let nagAt = Date.now() + 60_000;
  while (pending.size && !stopping) {
    await Promise.all(
      [...pending].map(async (check) => {
        if (!(await answers(check.url))) return;
        pending.delete(check);
        console.log(`✔ ${check.name} answers (${seconds()} s)`);
      }),
    );
    if (!pending.size || stopping) break;
    if (Date.now() > nagAt) {
      console.log(`… still waiting for ${[...pending].map((c) => `${c.name} (${c.url})`).join(', ')}`);
      nagAt = Date.now() + 60_000;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
await waitUntilReady();
if (!stopping) {
  console.log(`
Ready in ${seconds()} s.

${hasWeb ? `Start here (sign in as anna@demo.test, password Demo-Password-1!):  ${webUrl}/` : ''}
${hasWeb ? `Demo calling platform (the page the sign-in returns to):  ${demoUrl}/app/login   /admin/login   /academy/login` : ''}
Core API, region eu-north-1 (Sweden/Europe):  http://localhost:${ports.eu}/core/v1   docs: http://localhost:${ports.eu}/docs   outbox: http://localhost:${ports.eu}/dev/outbox
Core API, region sa-east-1 (Brazil):          http://localhost:${ports.sa}/core/v1   docs: http://localhost:${ports.sa}/docs   outbox: http://localhost:${ports.sa}/dev/outbox
Demo accounts (password Demo-Password-1!):
  anna@demo.test   Sweden/Europe, no second factor
  erik@demo.test   Sweden/Europe, email code (read it at /dev/outbox)
  sofia@demo.test  Sweden/Europe, email and SMS codes
  maria@demo.test  Sweden/Europe and Brazil (pick a region)
  joao@demo.test   Brazil only
  pia@demo.test    Sweden/Europe, email code: the account for trying passkeys (README, Passkeys)
  sso-user@sso.demo.test  'Log in with SSO' (Sweden/Europe): sign in at the development identity provider
                          (${devIdp.issuer}) with any password
  nora@demo.test   invited, no password yet: open the link in her invitation at
                   http://localhost:${ports.eu}/dev/outbox?to=nora@demo.test and choose one
Ctrl-C stops everything; data stays in ${dataRoot === join(root, 'data') ? 'data/ until `npm run reset`' : dataRoot}.
`);
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }, 12_000);
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() => {
    clearTimeout(force);
    process.exit(code);
  });
}
