// What each workaround of library internals saves on the request it sits on (the authenticated GET): a region
// without it and one with all of them serve side by side, and their rounds alternate, so a busy minute on the
// machine falls on both. Each figure is the median of the rounds' CPU per request.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Workaround } from '../src/app';
import { load, request } from './load';
import { cpuMillis, stop } from './processes';

const workarounds: (Workaround | 'none')[] = ['none', 'route-matcher-cache'];

async function start(without: Workaround | 'none', port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = fork(join(__dirname, 'workaround-region.ts'), [], {
    env: { ...process.env, WITHOUT: without, PORT: String(port), DATABASE_URL: databaseUrl },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`region without ${without} exited ${code}`)));
  });
  return child;
}

export interface WorkaroundSaving {
  workaround: Workaround;
  /** CPU per GET with every workaround, and without this one (µs). */
  withIt: number;
  without: number;
}

export async function measureWorkarounds(pgUrl: string, seconds: number, rounds: number): Promise<WorkaroundSaving[]> {
  const admin = new Client({ connectionString: pgUrl });
  await admin.connect();
  const children: ChildProcess[] = [];
  try {
    const v1 = { 'cosafe-core-api-version': '1' };
    const targets = [];
    for (const [i, without] of workarounds.entries()) {
      const name = `core_bench_workaround_${i}`;
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      const port = 4194 + i;
      const child = await start(without, port, pgUrl.replace(/\/[^/]*$/, `/${name}`));
      children.push(child);
      const res = await request(
        port,
        {
          method: 'POST',
          path: '/core/v1/sessions',
          headers: v1,
          body: JSON.stringify({ grantType: 'password', email: 'anna@demo.test', password: 'Demo-Password-1!' }),
        },
        new http.Agent(),
      );
      const token = JSON.parse(res.body).accessToken as string;
      const next = () => ({
        method: 'GET',
        path: '/core/v1/tenants',
        headers: { ...v1, authorization: `Bearer ${token}` },
      });
      await load({ port, connections: 8, durationMs: 2000, next });
      targets.push({ without, port, pid: child.pid!, next, cpu: [] as number[] });
    }
    for (let r = 0; r < rounds; r++) {
      for (const t of targets) {
        const before = cpuMillis(t.pid);
        const result = await load({
          port: t.port,
          connections: 16,
          durationMs: seconds * 1000,
          next: t.next,
          expectStatus: 200,
        });
        t.cpu.push(((cpuMillis(t.pid) - before) * 1000) / Math.max(1, result.requests));
      }
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
    const all = median(targets[0].cpu);
    return targets.slice(1).map((t) => ({ workaround: t.without as Workaround, withIt: all, without: median(t.cpu) }));
  } finally {
    for (const child of children) await stop(child);
    await admin.end();
  }
}
