#!/usr/bin/env node
// `npm start`: region eu-north-1 (Sweden/Europe) on :4000, region sa-east-1 (Brazil) on :4001, each with its own
// embedded database under data/<region>, the sign-in web app on :5173, the demo calling platform on :4100 and the
// development identity provider on :4300 (single sign-on for sso.demo.test in eu-north-1). Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const regions = [
  { region: 'eu-north-1', label: 'Sweden/Europe', port: 4000 },
  { region: 'sa-east-1', label: 'Brazil', port: 4001 },
];
const children = [];
// The development identity provider ('Log in with SSO', scripts/dev-idp.mjs) and where it sends the browser back.
const devIdp = { port: 4300, issuer: 'http://127.0.0.1:4300', redirectUri: 'http://localhost:5173/login/sso' };

function run(name, command, args, options) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(prefix + line + '\n');
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
  run(r.region, process.execPath, ['--import', 'tsx', join('server', 'src', 'main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      REGION: r.region,
      PORT: String(r.port),
      PUBLIC_BASE_URL: `http://localhost:${r.port}`,
      DATA_DIR: join(root, 'data', r.region),
      // The sign-in web app and the demo calling platform call the API from the browser.
      CORS_ORIGINS: process.env.CORS_ORIGINS ?? 'http://localhost:5173,http://localhost:4100',
      // Europe's demo data binds sso.demo.test to the development identity provider (server/src/db/seed-sso.ts).
      ...(r.region === 'eu-north-1'
        ? { DEV_SSO_ISSUER: process.env.DEV_SSO_ISSUER ?? devIdp.issuer, REDIRECT_ALLOW_LIST: process.env.REDIRECT_ALLOW_LIST ?? devIdp.redirectUri }
        : {}),
    },
  });
}
run('dev-idp', process.execPath, [join('scripts', 'dev-idp.mjs')], {
  env: { ...process.env, DEV_IDP_PORT: String(devIdp.port), DEV_SSO_ISSUER: process.env.DEV_SSO_ISSUER ?? devIdp.issuer, DEV_SSO_REDIRECT_URIS: devIdp.redirectUri },
});
const hasWeb = existsSync(join(root, 'web', 'index.html'));
if (hasWeb) {
  run('web', process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', '5173', '--strictPort'], { cwd: join(root, 'web') });
  // Stand-ins for the admin panel, the main app and the academy: where the sign-in app sends the browser back.
  run('demo-platform', process.execPath, [join(root, 'scripts', 'demo-platform.mjs')], { env: { ...process.env, DEMO_PLATFORM_PORT: '4100' } });
}

console.log(`
Core API, region eu-north-1 (Sweden/Europe):  http://localhost:4000/core/v1   docs: http://localhost:4000/docs   outbox: http://localhost:4000/dev/outbox
Core API, region sa-east-1 (Brazil):          http://localhost:4001/core/v1   docs: http://localhost:4001/docs   outbox: http://localhost:4001/dev/outbox
${hasWeb ? 'Sign-in web app:                             http://localhost:5173/login?redirectUrl=http://localhost:4100/app/login' : ''}
${hasWeb ? 'Demo calling platform (start a login here):  http://localhost:4100/app/login   /admin/login   /academy/login' : ''}
Demo accounts (password Demo-Password-1!):
  anna@demo.test   Sweden/Europe, no second factor
  erik@demo.test   Sweden/Europe, email code (read it at /dev/outbox)
  sofia@demo.test  Sweden/Europe, email and SMS codes
  maria@demo.test  Sweden/Europe and Brazil (pick a region)
  joao@demo.test   Brazil only
  sso-user@sso.demo.test  'Log in with SSO' (Sweden/Europe): sign in at the development identity provider
                          (${devIdp.issuer}) with any password
Ctrl-C stops everything; data stays in data/ until \`npm run reset\`.
`);

let stopping = false;
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
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
