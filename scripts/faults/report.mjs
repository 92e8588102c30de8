// docs/faults.md from the checks and figures of a run.
import { cpus, loadavg, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../prove/region.mjs';
import { started, loadAtStart, sections, pgVersion, keyOf } from './context.mjs';

export function writeReport() {
  const lines = [
    '# Fault injection',
    '',
    `Latest run: ${new Date().toISOString()} by \`npm run test:faults\` (scripts/faults.mjs), ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node.js ${process.version}, ${pgVersion} (a private instance started for the run); load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (other work shared the machine).`,
    '',
    'Each region is a real process of the production build (`npm run build`, then `node server/dist/main.js` in production',
    'mode, secrets in the environment; the demo data written into each database beforehand by the compiled seeder) on a',
    'private PostgreSQL server (initdb + pg_ctl in a temp directory, a free loopback port), with `NOTIFY_TRANSPORT=live`',
    'against stand-in providers on 127.0.0.1 (an SMTP server, and an HTTP API for SMS, voice and push). Every dispatch',
    `carries its identity on every attempt: \`idempotency-key\` (HTTP) / \`X-Idempotency-Key\` (email) = \`<region>.dispatch-<id>.<nonce>\``,
    '(here `' +
      keyOf({ id: '<id>', key_nonce: '<nonce>' }) +
      '`), and for email the Message-ID `<key@sender domain>`. Delivery is at least once at the',
    'provider interface: a send in flight when a region dies (or answered after the client gave up) is sent again',
    '(docs/decisions.md, "Dispatches"). The stand-ins behave like the real providers: the HTTP API answers a key it has',
    'already accepted with success and does not deliver again; the SMTP server accepts a repeated Message-ID for a',
    'mailbox and delivers it once. They record every request. "Nothing sent twice" is checked at two levels: the',
    'database never holds two dispatches of one message to one address and channel, and each dispatch is delivered to',
    'its recipient exactly once after that dedupe; the requests repeated at the interface are reported apart (each',
    'scenario starts with fresh provider accounts).',
    '',
  ];
  for (const s of sections) {
    lines.push(`## ${s.title}`, '', s.intro, '', '| Check | Result | Detail |', '|---|---|---|');
    for (const c of s.checks)
      lines.push(`| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${String(c.detail).replace(/\|/g, '\\|')} |`);
    if (s.figures.length) {
      lines.push('', ...s.figures.map((f) => `- ${f.name}: ${f.value}`));
    }
    lines.push('');
  }
  lines.push(
    '## Reproduce',
    '',
    '```sh',
    'npm run test:faults   # needs /usr/lib/postgresql/*/bin (initdb, pg_ctl) and haproxy; builds first (npm run build)',
    '```',
    '',
  );
  writeFileSync(join(root, 'docs', 'faults.md'), lines.join('\n'));
}
