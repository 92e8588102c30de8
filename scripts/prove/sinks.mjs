// Stand-ins for the outbound providers, on 127.0.0.1: an SMTP server (smtp-server) and an HTTP provider API (SMS,
// voice, push). Each records every attempt with the idempotency key the region sent (X-Idempotency-Key for email,
// idempotency-key for HTTP), and can be made slow or failing on purpose. Like the real ones they deliver a
// dispatch once however often it is sent: the HTTP provider answers a key it has already accepted with success
// and does not deliver again; the SMTP server (standing in for the receiving mail system) accepts a repeated
// Message-ID for a mailbox but delivers it once. Attempts are recorded as they arrive (`accepted`: at the provider
// interface), deliveries after that dedupe (`delivered`).
import { createRequire } from 'node:module';
import http from 'node:http';
import { freePort, sleep } from './region.mjs';

const require = createRequire(import.meta.url);
const { SMTPServer } = require('smtp-server');

/** What a sink does with the next attempts; change it at any time. */
export function defaultBehaviour() {
  return {
    delayMs: 0,
    /** Delay only the first attempt of each idempotency key (slower than the client's timeout, say). */
    firstAttemptDelayMs: 0,
    /** Refuse this many attempts of each key with a temporary error before accepting. */
    failFirstAttempts: 0,
    /** Recipients refused for good. */
    failAlways: new Set(),
    /** Refuse everything (a provider that is down). */
    down: false,
    /** Per recipient domain (email) or number prefix (HTTP): the same settings, overriding the ones above. */
    byDomain: {},
  };
}

/** The behaviour that applies to one recipient. */
function rulesFor(behaviour, to) {
  const domain = String(to ?? '').split('@')[1] ?? '';
  const prefix = Object.keys(behaviour.byDomain).find((k) => domain === k || String(to ?? '').startsWith(k));
  return { ...behaviour, ...(prefix ? behaviour.byDomain[prefix] : {}) };
}

function recorder() {
  const attempts = [];
  const perKey = new Map();
  /** What the provider has delivered (its dedupe memory); null identities are never deduplicated. */
  const seen = new Set();
  const count = (filter) => {
    const byKey = new Map();
    for (const a of attempts) if (filter(a)) byKey.set(a.key, (byKey.get(a.key) ?? 0) + 1);
    return byKey;
  };
  return {
    attempts,
    next(key) {
      const n = (perKey.get(key) ?? 0) + 1;
      perKey.set(key, n);
      return n;
    },
    /** Whether an accepted message with this identity is delivered (true once per identity) or a repeat. */
    deliver(identity) {
      if (identity === null || identity === undefined) return true;
      if (seen.has(identity)) return false;
      seen.add(identity);
      return true;
    },
    /** Accepted requests grouped by idempotency key: what arrived at the provider interface, repeats included. */
    accepted() {
      return count((a) => a.accepted);
    },
    /** Deliveries to the recipient grouped by idempotency key, after the provider's dedupe. */
    delivered() {
      return count((a) => a.delivered);
    },
    summary() {
      const accepted = this.accepted();
      const delivered = this.delivered();
      const sum = (m) => [...m.values()].reduce((s, n) => s + n, 0);
      return {
        attempts: attempts.length,
        accepted: sum(accepted),
        delivered: sum(delivered),
        uniqueKeys: accepted.size,
        keysAcceptedTwice: [...accepted.entries()].filter(([k, n]) => k !== null && n > 1).length,
        keysDeliveredTwice: [...delivered.entries()].filter(([k, n]) => k !== null && n > 1).length,
        refused: attempts.filter((a) => !a.accepted).length,
      };
    },
    /** Forgets the attempts and the dedupe memory: a fresh provider account. */
    clear() {
      attempts.length = 0;
      perKey.clear();
      seen.clear();
    },
  };
}

export async function startSmtpSink() {
  const port = await freePort();
  const behaviour = defaultBehaviour();
  const log = recorder();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (
        rulesFor(behaviour, address.address).failAlways?.has?.(address.address) ||
        rulesFor(behaviour, address.address).rejectRecipient
      ) {
        log.attempts.push({ key: null, to: address.address, at: Date.now(), accepted: false, reason: 'rcpt 550' });
        const error = new Error('Mailbox unavailable');
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.split(/\r?\n\r?\n/)[0];
        const header = (name) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(head)?.[1]?.trim() ?? null;
        const key = header('x-idempotency-key');
        const messageId = header('message-id');
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const attempt = log.next(key);
        const rules = rulesFor(behaviour, to);
        if (attempt === 1 && rules.firstAttemptDelayMs) await sleep(rules.firstAttemptDelayMs);
        if (rules.delayMs) await sleep(rules.delayMs);
        if (rules.down || attempt <= rules.failFirstAttempts) {
          log.attempts.push({ key, to, at: Date.now(), accepted: false, reason: '451' });
          const error = new Error('Temporary failure, try again later');
          error.responseCode = 451;
          return callback(error);
        }
        // A mail system keeps one copy of a Message-ID per mailbox: a repeat is accepted, not delivered again.
        const delivered = log.deliver(messageId === null ? null : `${to}\n${messageId}`);
        log.attempts.push({
          key,
          messageId,
          to,
          at: Date.now(),
          accepted: true,
          delivered,
          subject: header('subject') ?? '',
        });
        callback(null, delivered ? 'queued' : 'queued (duplicate Message-ID, not delivered again)');
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  server.on('error', () => undefined);
  return { url: `smtp://127.0.0.1:${port}`, port, behaviour, log, close: () => new Promise((r) => server.close(r)) };
}

export async function startHttpSink() {
  const port = await freePort();
  const behaviour = defaultBehaviour();
  const log = recorder();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      let message = {};
      try {
        message = JSON.parse(body);
      } catch {
        /* recorded as is */
      }
      const key = req.headers['idempotency-key'] ?? null;
      const channel = req.url.replace(/^\//, '') || 'http';
      const attempt = log.next(key);
      const rules = rulesFor(behaviour, message.to);
      if (attempt === 1 && rules.firstAttemptDelayMs) await sleep(rules.firstAttemptDelayMs);
      if (rules.delayMs) await sleep(rules.delayMs);
      const refuse =
        rules.down || attempt <= rules.failFirstAttempts || rules.failAlways.has(message.to) || rules.rejectRecipient;
      // An idempotency key already accepted answers success and is not delivered again (the provider contract).
      const delivered = !refuse && log.deliver(key === null ? null : `${channel}\n${key}`);
      log.attempts.push({
        key,
        to: message.to,
        channel,
        at: Date.now(),
        accepted: !refuse,
        delivered,
        text: message.text,
      });
      if (refuse) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(delivered ? '{"status":"accepted"}' : '{"status":"duplicate"}');
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    behaviour,
    log,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
