import { loadavg } from 'node:os';
// Better Auth's rows of `npm run bench`, measured as the region's are: the same warm-up, the same rounds of
// sign-ins each against a verify measured around it, rate limiting on for both (each client from its own
// address), and the session check's CPU per request with its database's. Better Auth has no refresh-token
// rotation (its session refresh extends the same session), so there is no refresh row: not the same operation.
import http from 'node:http';
import { measure, medianCost, PostgresCpu } from './costs';
import { load, request } from './load';
import { startBetterAuth, stop } from './processes';
import { nextAddress, type Row, type RunContext } from './region';
import { signInCost } from './sign-in-cost';

const password = 'Demo-Password-1!';
const fmt = (n: number, digits = 0) => n.toFixed(digits);

export async function benchBetterAuth(port: number, databaseUrl: string, ctx: RunContext): Promise<Row[]> {
  const child = await startBetterAuth(port, databaseUrl);
  const database = await PostgresCpu.open(databaseUrl);
  const rows: Row[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const headers = () => ({ origin: `http://127.0.0.1:${port}`, 'x-forwarded-for': nextAddress() });
  try {
    const users = 40;
    for (let i = 1; i <= users; i++) {
      const res = await request(
        port,
        {
          method: 'POST',
          path: '/api/auth/sign-up/email',
          headers: headers(),
          body: JSON.stringify({ email: `bench-${i}@demo.test`, password, name: `Bench ${i}` }),
        },
        agent,
      );
      if (res.status !== 200) throw new Error(`Better Auth sign-up failed: ${res.status} ${res.body}`);
    }
    let n = 0;
    const signInSpec = () => ({
      method: 'POST',
      path: '/api/auth/sign-in/email',
      headers: headers(),
      body: JSON.stringify({ email: `bench-${(n++ % users) + 1}@demo.test`, password }),
    });
    const first = await request(port, signInSpec(), agent);
    const cookie = String(first.headers['set-cookie']?.[0] ?? '').split(';')[0];
    if (!cookie) throw new Error('Better Auth sign-in gave no session cookie');
    const signIn = await signInCost(
      child.pid!,
      (warm) =>
        load({
          port,
          connections: 4,
          durationMs: warm ? 3000 : ctx.seconds * 1000,
          expectStatus: 200,
          next: signInSpec,
        }),
      (r) => r.statuses[200] ?? 0,
    );
    rows.push({
      load: loadavg()[0],
      name: 'Better Auth: password sign-in (1 request)',
      result: signIn.result,
      note: signIn.note,
    });
    const check = () => ({ method: 'GET', path: '/api/auth/get-session', headers: { ...headers(), cookie } });
    await load({ port, connections: 8, durationMs: 2000, next: check });
    const costs = [];
    for (let i = 0; i < ctx.rounds; i++)
      costs.push(
        await measure({ pid: child.pid!, database }, () =>
          load({ port, connections: 16, durationMs: ctx.seconds * 1000, expectStatus: 200, next: check }),
        ),
      );
    const cost = medianCost(costs);
    rows.push({
      load: loadavg()[0],
      name: 'Better Auth: session check (get-session)',
      result: cost.result,
      cost,
      note: `compare with the authenticated GET: ${fmt(cost.nodeUs)} µs Node CPU, ${fmt(cost.dbUs)} µs database CPU per request`,
    });
  } finally {
    agent.destroy();
    await database.close();
    await stop(child);
  }
  return rows;
}
