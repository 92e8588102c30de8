// `npm start` as a newcomer meets it: the URLs come with "Ready" only once every service answers, the first URL
// is the sign-in app, and the servers' logs read as one short line per request instead of JSON.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../../test-support/chromium';
import { freePort, startProcess, type Spawned } from '../../../test-support/processes';

jest.setTimeout(300_000);

const root = join(__dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'core-start-'));
const logFile = join(work, 'start.log');
let stack: Spawned;
let output = '';
let webPort = 0;
const regionPorts = { 'eu-north-1': 0, 'sa-east-1': 0 };
/** Every URL printed with "Ready", and what each answered the moment "Ready" appeared. */
const answers = new Map<string, number>();

beforeAll(async () => {
  const [eu, sa, web, demo, idp] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  webPort = web;
  regionPorts['eu-north-1'] = eu;
  regionPorts['sa-east-1'] = sa;
  stack = startProcess(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    logFile,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      EU_NORTH_1_PORT: String(eu),
      SA_EAST_1_PORT: String(sa),
      WEB_PORT: String(web),
      DEMO_PLATFORM_PORT: String(demo),
      DEV_IDP_PORT: String(idp),
      DATA_ROOT: join(work, 'data'),
      LOG_LEVEL: 'info',
    },
  });
  await new Promise<void>((resolve, reject) => {
    stack.child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      if (/^Ready in /m.test(output)) resolve();
    });
    void stack.exited.then((code) =>
      reject(new Error(`npm start exited (${code}) before it was ready; see ${logFile}`)),
    );
  });
  // Checked at once, with no retry: "Ready" must mean ready.
  const printed = [...new Set(output.slice(output.search(/^Ready in /m)).match(/https?:\/\/[^\s)]+/g) ?? [])];
  await Promise.all(
    printed.map(async (url) => {
      // An API base answers through its readiness check, the identity provider through its discovery document.
      const target = url.endsWith('/core/v1')
        ? url.replace(/\/core\/v1$/, '/readyz')
        : url.includes(`:${idp}`)
          ? `${url}/.well-known/openid-configuration`
          : url;
      const res = await fetch(target, { redirect: 'manual', signal: AbortSignal.timeout(5_000) }).catch(() => null);
      answers.set(url, res?.status ?? 0);
    }),
  );
});

afterAll(async () => {
  if (stack && stack.child.exitCode === null) {
    stack.child.kill('SIGTERM');
    await stack.exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe('npm start', () => {
  test('when it says Ready, every URL it prints answers', () => {
    expect(answers.size).toBeGreaterThanOrEqual(8);
    expect([...answers].filter(([, status]) => status < 200 || status >= 400)).toEqual([]);
  });

  test('the first URL it prints is the sign-in web app', () => {
    const first = /https?:\/\/\S+/.exec(output.slice(output.search(/^Ready in /m)))?.[0];
    expect(first).toBe(`http://localhost:${webPort}/`);
  });

  test('the first URL, the sign-in app, signs anna in for the demo calling platform and lands there with a working session', async () => {
    const ready = output.slice(output.search(/^Ready in /m));
    const first = /https?:\/\/\S+/.exec(ready)?.[0] ?? '';
    const demoLogin = /^Demo calling platform.*?(http:\/\/\S+\/app\/login)/m.exec(ready)?.[1] ?? '';
    expect(demoLogin).toMatch(/^http:\/\/localhost:\d+\/app\/login$/);
    // Debian's Chromium, headless, as the web app's end-to-end tests run it (never a downloaded browser).
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(first);
      // The bare root starts a sign-in whose redirectUrl is the demo platform's app login.
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectUrl') === demoLogin, {
        timeout: 60_000,
      });
      await page.locator('#email').waitFor({ timeout: 60_000 });
      await page.fill('#email', 'anna@demo.test');
      await page.fill('#password', 'Demo-Password-1!');
      await page.click('form button[type=submit]');
      await page.waitForURL((url) => url.href.startsWith(`${demoLogin}?`), { timeout: 30_000 });
      // The demo platform proves the session by refreshing it at the region (data-state=ok when that worked).
      await page.locator('#proof[data-state=ok]').waitFor({ timeout: 15_000 });
    } finally {
      await browser.close();
    }
  });

  test('after a sign-in each region idles under 300 MB of resident memory', async () => {
    // A password sign-in in each region (its hashing pool has run argon2id), then the regions idle.
    for (const [region, email] of [
      ['eu-north-1', 'anna@demo.test'],
      ['sa-east-1', 'joao@demo.test'],
    ] as const) {
      const res = await fetch(`http://localhost:${regionPorts[region]}/core/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cosafe-core-api-version': '1' },
        body: JSON.stringify({ grantType: 'password', email, password: 'Demo-Password-1!' }),
      });
      expect({ region, status: res.status }).toEqual({ region, status: 201 });
    }
    // Idle means a while: V8 gives back what boot and seeding left after some seconds of quiet (its memory
    // reducer). Read every second for up to 30 s; the last reading is what is checked.
    let resident: Record<string, string> = {};
    for (let waited = 0; waited <= 30; waited++) {
      await new Promise((r) => setTimeout(r, 1_000));
      resident = Object.fromEntries(
        regionProcesses(stack.child.pid!).map(({ region, rssMb }) => [
          region,
          rssMb < 300 ? 'under 300 MB' : `${rssMb} MB`,
        ]),
      );
      if (Object.values(resident).every((v) => v === 'under 300 MB') && Object.keys(resident).length === 2) break;
    }
    expect(resident).toEqual({ 'eu-north-1': 'under 300 MB', 'sa-east-1': 'under 300 MB' });
  });

  test('development logs are one short line per request, not JSON', () => {
    const lines = output.split('\n');
    expect(
      lines.some((line) =>
        /^\[eu-north-1\] \[\d\d:\d\d:\d\d\] INFO: GET \/readyz 200 \d+ ms$/.test(line.replace(/\x1b\[[0-9;]*m/g, '')),
      ),
    ).toBe(true);
    expect(lines.filter((line) => /^\[(eu-north-1|sa-east-1)\] \{/.test(line))).toEqual([]);
  });
});

/** The regions `npm start` runs (its children running server/src/main.ts), with their resident set (Linux /proc). */
function regionProcesses(parent: number): { region: string; rssMb: number }[] {
  const regions: { region: string; rssMb: number }[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== parent) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join('server', 'src', 'main.ts'))) continue;
      const region = /(?:^|\0)REGION=([^\0]+)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1] ?? '?';
      regions.push({ region, rssMb: Math.round(Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024) });
    } catch {
      // A process that ended while being read.
    }
  }
  return regions;
}
