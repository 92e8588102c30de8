#!/usr/bin/env node
// `npm run test:contract`: the contract checked from outside the code, against a live region.
//   1. starts a region (`node --import tsx server/src/main.ts`, development mode with its demo data, a fresh PGlite
//      directory in a temp dir, a free loopback port) and waits for /readyz;
//   2. runs the Arazzo workflows in contract/*.arazzo.yaml with `redocly respect` (every step's status, content type
//      and body are checked against the contract, plus the workflows' own success criteria);
//   3. generates contract tests for every operation from the bundled contract with @apideck/portman
//      (contract/portman-config.json) and runs them with newman;
//   4. checks that the region's log never shows the demo password, a refresh token or an api key;
//   5. stops the region.
// Ends with `N passed, N failed` (one check per workflow, per newman assertion and for the log); exit 1 on failure.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { freePort, root, startRegion, tempDir } from './prove/region.mjs';

const demoPassword = 'Demo-Password-1!';
const accounts = { email: 'anna@demo.test', otpEmail: 'erik@demo.test' };
const bin = (name) => join(root, 'node_modules', '.bin', name);
// newman 6.2 (the latest) reads fs.F_OK, which Node.js 24 reports as deprecated (DEP0176) on every start.
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  NO_COLOR: '1',
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --disable-warning=DEP0176`.trim(),
};
const work = tempDir('contract-tests-');
const started = Date.now();
let passed = 0;
let failed = 0;
const failures = [];

const count = (ok, name) => {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
};

/**
 * Reads the region's development outbox and answers the newest six-digit code sent to `to` (contract/outbox-codes):
 * Arazzo runtime expressions point into JSON but cannot cut a code out of a sentence.
 */
function startCodeReader(regionUrl, port) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      const to = url.searchParams.get('to');
      if (url.pathname !== '/latest-code' || !to)
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      const outbox = await fetch(`${regionUrl}/dev/outbox?to=${encodeURIComponent(to)}`).then((r) => r.json());
      const code = outbox.data.map((m) => /\b(\d{6})\b/.exec(`${m.subject ?? ''}\n${m.body}`)?.[1]).find(Boolean);
      res.writeHead(code ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(code ? { code } : {}));
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Runs a tool without blocking this process (the code reader and the region's log pipe must keep flowing). */
function run(name, command, args, { timeoutMs = 300_000 } = {}) {
  console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => console.error(error.message));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

async function respect(region, codesPort) {
  const files = readdirSync(join(root, 'contract'))
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .map((f) => join('contract', f));
  const report = join(work, 'respect.json');
  const inputs = `email=${accounts.email},emailHash=${createHash('sha256').update(accounts.email).digest('hex')},otpEmail=${accounts.otpEmail},password=${demoPassword}`;
  const ok = await run('Arazzo workflows (redocly respect)', bin('redocly'), [
    'respect',
    ...files,
    '--server',
    `core=${region.baseUrl}/core/v1`,
    '--server',
    `outbox=${region.baseUrl}`,
    '--server',
    `codes=http://127.0.0.1:${codesPort}`,
    '--input',
    inputs,
    '--max-fetch-timeout',
    '15000',
    '--execution-timeout',
    '180000',
    '--json-output',
    report,
  ]);
  const workflows = existsSync(report) ? workflowResults(JSON.parse(readFileSync(report, 'utf8'))) : [];
  for (const w of workflows) count(w.ok, `workflow ${w.id}`);
  if (workflows.length === 0 || (!ok && workflows.every((w) => w.ok))) count(false, 'redocly respect');
}

/** Per workflow pass/fail from respect's JSON report (its shape is not documented: read defensively). */
function workflowResults(report) {
  const found = [];
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return void node.forEach(visit);
    if (typeof node.workflowId === 'string' && (typeof node.status === 'string' || typeof node.passed === 'boolean')) {
      found.push({ id: node.workflowId, ok: node.status ? node.status === 'success' : node.passed });
      return;
    }
    Object.values(node).forEach(visit);
  };
  visit(report);
  return found;
}

async function portman(region) {
  const collection = join(work, 'collection.json');
  const generated = await run('Portman: contract tests generated from generated/core-api.bundle.json', bin('portman'), [
    '--local',
    'generated/core-api.bundle.json',
    '--baseUrl',
    `${region.baseUrl}/core/v1`,
    '--portmanConfigFile',
    'contract/portman-config.json',
    '--postmanConfigFile',
    'contract/postman-config.json',
    '--output',
    collection,
  ]);
  if (!generated || !existsSync(collection)) return count(false, 'portman generation');
  const report = join(work, 'newman.json');
  const ok = await run('newman: the generated contract tests against the region', bin('newman'), [
    'run',
    collection,
    '--reporters',
    'cli,json',
    '--reporter-json-export',
    report,
    '--timeout-request',
    '15000',
    '--timeout',
    '180000',
    '--color',
    'off',
  ]);
  if (!existsSync(report)) return count(false, 'newman');
  const { run: summary } = JSON.parse(readFileSync(report, 'utf8'));
  const assertions = summary.stats.assertions;
  passed += assertions.total - assertions.failed;
  failed += assertions.failed;
  for (const f of summary.failures) {
    const answer = summary.executions.find((e) => e.item?.id === f.source?.id)?.response;
    const body = answer?.stream
      ? Buffer.from(answer.stream.data ?? answer.stream)
          .toString('utf8')
          .slice(0, 300)
      : '';
    failures.push(
      `newman: ${f.source?.name ?? ''}: ${f.error?.test ?? f.error?.message} (answer ${answer?.code ?? '-'} ${body})`,
    );
  }
  if (!ok && assertions.failed === 0) count(false, 'newman run');
}

let region;
let codes;
try {
  console.log('▶ starting a region (development mode, fresh embedded database)');
  region = await startRegion({ env: { LOG_LEVEL: 'info' } });
  console.log(`  ready at ${region.baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const codesPort = await freePort();
  codes = await startCodeReader(region.baseUrl, codesPort);
  await respect(region, codesPort);
  await portman(region);
  await new Promise((r) => setTimeout(r, 500));
  const log = region.output;
  const leaked = [demoPassword, /rt_[A-Za-z0-9_-]{40,}/, /csk_[A-Za-z0-9_-]{40,}/].filter((s) =>
    typeof s === 'string' ? log.includes(s) : s.test(log),
  );
  console.log(`\n▶ the region's log (${log.split('\n').length} lines) shows no password, refresh token or api key`);
  count(leaked.length === 0, `secrets in the region's log: ${leaked.join(', ')}`);
} catch (error) {
  console.error(error);
  count(false, String(error.message ?? error).split('\n')[0]);
} finally {
  codes?.close();
  await region?.stop();
  region?.cleanup();
  rmSync(work, { recursive: true, force: true });
}

if (failures.length) console.log(`\nFailed:\n- ${failures.slice(0, 50).join('\n- ')}`);
console.log(`\ncontract tests took ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
