#!/usr/bin/env node
// A stand-in for the three calling platforms (admin panel, main app, academy), for development only (issue 5,
// item 9). Each login page links to the sign-in web app with itself as redirectUrl; when the sign-in app sends
// the browser back, the page shows the sessionId and region it received and proves the refreshToken by refreshing
// the session at that region's API from the browser (PUT /core/v1/sessions/{sessionId}).
//
// No dependencies. Configuration (environment):
//   DEMO_PLATFORM_PORT  port to listen on (default 4100); DEMO_PLATFORM_HOST (default 127.0.0.1)
//   DEMO_PLATFORM_URL   the URL browsers use for this server (default http://localhost:<port>); the login pages
//                       are <url>/admin/login, /app/login and /academy/login and must be on the sign-in app's
//                       redirect allow-list, and <url>'s origin in each region's CORS_ORIGINS
//   SIGN_IN_APP_URL     the sign-in web app (default http://localhost:5173)
//   REGION_API_URLS     region=origin pairs (default eu-north-1=http://localhost:4000,sa-east-1=http://localhost:4001)
import { createServer } from 'node:http';

const port = Number(process.env.DEMO_PLATFORM_PORT ?? 4100);
const host = process.env.DEMO_PLATFORM_HOST ?? '127.0.0.1';
const publicUrl = (process.env.DEMO_PLATFORM_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const signInAppUrl = (process.env.SIGN_IN_APP_URL ?? 'http://localhost:5173').replace(/\/+$/, '');
const regionApiUrls = Object.fromEntries(
  (process.env.REGION_API_URLS ?? 'eu-north-1=http://localhost:4000,sa-east-1=http://localhost:4001')
    .split(',')
    .map((pair) => pair.trim().split('='))
    .filter(([region, url]) => region && url)
    .map(([region, url]) => [region.trim(), url.trim().replace(/\/+$/, '')]),
);

const platforms = {
  admin: { name: 'Admin panel', clientType: 'admin' },
  app: { name: 'Main app', clientType: 'app' },
  academy: { name: 'Academy', clientType: 'academy' },
};

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
/** JSON safe inside a <script> element. */
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

const style = `
  :root { font-family: system-ui, sans-serif; color: #1b2430; background: #f2f5f9; line-height: 1.5; }
  body { margin: 0; }
  header { background: #1b2430; color: #fff; padding: 12px 24px; }
  header p { margin: 0; font-size: 0.875rem; color: #d7dde5; }
  main { max-width: 720px; margin: 32px auto; padding: 0 16px; display: grid; gap: 16px; }
  section { background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.08); }
  h1 { margin: 0; font-size: 1.25rem; }
  h2 { margin: 0 0 12px; font-size: 1.125rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 12px; }
  dt { font-weight: 600; }
  dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  a { color: #0b5cad; }
  .button { display: inline-block; background: #0b5cad; color: #fff; padding: 10px 20px; border-radius: 8px; font-weight: 600; text-decoration: none; }
  .proof { margin: 0; padding: 12px; border-radius: 8px; background: #eef2f6; }
  .proof[data-state='ok'] { background: #e6f4ea; color: #14532d; }
  .proof[data-state='failed'] { background: #fdecea; color: #8c1d18; }
  nav ul { margin: 0; padding-left: 20px; }
`;

function loginPage(key) {
  const platform = platforms[key];
  const pageUrl = `${publicUrl}/${key}/login`;
  const loginUrl = `${signInAppUrl}/login?redirectUrl=${encodeURIComponent(pageUrl)}${key === 'academy' ? '&clientType=academy' : ''}`;
  const others = Object.entries(platforms).filter(([other]) => other !== key);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(platform.name)} (demo platform)</title>
<style>${style}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(platform.name)}: demo calling platform</h1>
  <p>Development only. Stands in for the real ${escapeHtml(platform.name.toLowerCase())} at ${escapeHtml(pageUrl)}.</p>
</header>
<main>
  <section aria-labelledby="session-title">
    <h2 id="session-title">Session from the sign-in app</h2>
    <dl>
      <dt>sessionId</dt><dd id="session-id">none</dd>
      <dt>region</dt><dd id="region">none</dd>
      <dt>refreshToken</dt><dd id="refresh-token">none</dd>
    </dl>
    <p id="proof" class="proof" role="status" data-state="none">No session received yet: log in first.</p>
  </section>
  <section aria-labelledby="login-title">
    <h2 id="login-title">Log in</h2>
    <p><a id="login-link" class="button" href="${escapeHtml(loginUrl)}">Log in with the sign-in app</a></p>
    <nav aria-label="Other demo platforms">
      <ul>${others.map(([other, p]) => `<li><a href="/${other}/login">${escapeHtml(p.name)}</a></li>`).join('')}</ul>
    </nav>
  </section>
</main>
<script>
(() => {
  const REGIONS = ${scriptJson(regionApiUrls)};
  const params = new URLSearchParams(location.search);
  const sessionId = params.get('sessionId');
  const region = params.get('region');
  const refreshToken = params.get('refreshToken');
  const proof = document.getElementById('proof');
  const show = (state, text) => { proof.dataset.state = state; proof.textContent = text; };
  if (!sessionId) return;
  document.getElementById('session-id').textContent = sessionId;
  document.getElementById('region').textContent = region ?? 'none';
  document.getElementById('refresh-token').textContent = refreshToken ? 'received (' + refreshToken.length + ' characters, not shown)' : 'none';
  // A refresh token is single-use: take it out of the address bar so a reload cannot present it again.
  if (refreshToken) {
    params.delete('refreshToken');
    history.replaceState(null, '', location.pathname + '?' + params.toString());
  }
  const baseUrl = REGIONS[region];
  if (!refreshToken) return show('failed', 'No refreshToken was received.');
  if (!baseUrl) return show('failed', 'Unknown region ' + region + ': no API URL configured for it.');
  show('pending', 'Refreshing the session at ' + region + '…');
  fetch(baseUrl + '/core/v1/sessions/' + encodeURIComponent(sessionId), {
    method: 'PUT',
    headers: { Authorization: 'Bearer ' + refreshToken, 'cosafe-core-api-version': '1' },
  })
    .then(async (response) => {
      const body = await response.json().catch(() => null);
      if (response.ok && body && body.id === sessionId && body.refreshToken && body.accessToken) {
        show('ok', 'Refresh token proven: ' + region + ' refreshed session ' + sessionId + ' and issued new tokens.');
      } else {
        show('failed', 'Refresh failed: HTTP ' + response.status + (body && body.error ? ' ' + body.error.code : '') + '.');
      }
    })
    .catch((error) => show('failed', 'Refresh failed: ' + error.message + ' (is ' + baseUrl + ' running, with this origin in CORS_ORIGINS?)'));
})();
</script>
</body>
</html>
`;
}

function indexPage() {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo calling platforms</title><style>${style}</style></head>
<body>
<header><h1>Demo calling platforms</h1><p>Development only.</p></header>
<main><section aria-labelledby="list-title"><h2 id="list-title">Login pages</h2><ul>
${Object.entries(platforms)
  .map(([key, p]) => `<li><a href="/${key}/login">${escapeHtml(p.name)}</a></li>`)
  .join('\n')}
</ul></section></main>
</body>
</html>
`;
}

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://demo.invalid');
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
    return;
  }
  const match = pathname.match(/^\/(admin|app|academy)\/login$/);
  if (match) res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : loginPage(match[1]));
  else if (pathname === '/') res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : indexPage());
  // The browser asks every site for an icon: no icon, and no 404 in the console of a normal sign-in.
  else if (pathname === '/favicon.ico') res.writeHead(204, headers).end();
  else res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
});

server.listen(port, host, () => {
  console.log(`demo calling platform on ${publicUrl} (${host}:${port}): /admin/login, /app/login, /academy/login`);
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
