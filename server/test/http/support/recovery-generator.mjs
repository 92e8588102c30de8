// The load generator of the recovery test (recovery.test.ts), in a process of its own so that a pause of the server's
// process does not pause it: `node recovery-generator.mjs '<json>'`, loopback only, bounded in time.
//   {mode: 'closed', port, path, connections, durationMs}: N clients each sending its next request when the answer
//     came (the capacity); prints {perSecond, statuses}.
//   {mode: 'open', port, path, rate, durationMs, pause?: {pid, atMs, ms}}: `rate` requests a second whatever the
//     answers (new connections when every open one is busy, as clients do), and at `atMs` the process `pid` is
//     stopped for `ms` (SIGSTOP, SIGCONT: a garbage-collection pause, a neighbour holding the CPU); prints each
//     request as [due ms after the start, latency from when it was due, status (0: no answer within 10 s),
//     Retry-After present (0/1)], and when the pause really began and ended.
import http from 'node:http';

const spec = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections ?? 4096 });

function send() {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port: spec.port, path: spec.path, headers: spec.headers ?? {}, agent, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve([res.statusCode ?? 0, res.headers['retry-after'] ? 1 : 0]));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve([0, 0]));
    req.end();
  });
}

async function closed() {
  const statuses = {};
  const t0 = performance.now();
  const end = t0 + spec.durationMs;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < end) {
        const [status] = await send();
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { perSecond: (statuses[200] ?? 0) / seconds, statuses };
}

async function open() {
  const records = [];
  const pending = new Set();
  const pause = { began: null, ended: null };
  const t0 = performance.now();
  let issued = 0;
  if (spec.pause)
    setTimeout(() => {
      pause.began = performance.now() - t0;
      process.kill(spec.pause.pid, 'SIGSTOP');
      const resume = () => {
        process.kill(spec.pause.pid, 'SIGCONT');
        pause.ended = performance.now() - t0;
      };
      setTimeout(resume, spec.pause.ms);
    }, spec.pause.atMs);
  while (performance.now() - t0 < spec.durationMs) {
    const due = Math.floor(((performance.now() - t0) * spec.rate) / 1000);
    while (issued < due) {
      const dueAt = (issued * 1000) / spec.rate;
      issued++;
      const p = send().then(([status, retryAfter]) => {
        records.push([
          Math.round(dueAt * 10) / 10,
          Math.round((performance.now() - t0 - dueAt) * 100) / 100,
          status,
          retryAfter,
        ]);
        pending.delete(p);
      });
      pending.add(p);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  return { records, pause };
}

const result = spec.mode === 'closed' ? await closed() : await open();
agent.destroy();
process.stdout.write(JSON.stringify(result));
