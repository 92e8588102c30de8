// What one request costs, read from outside the processes that serve it: the server's CPU (Linux /proc), the
// CPU of the PostgreSQL backends serving its database, and the statements it sent (asked over the fork's IPC
// channel). Each figure is the median of several rounds, so a minute of a busy neighbour moves one round only.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { LoadResult } from './load';
import { cpuMillis } from './processes';

/** CPU (ms) of the PostgreSQL backends serving one database, by pid (PostgreSQL on this machine). */
export class PostgresCpu {
  private constructor(
    private readonly monitor: Client,
    private readonly database: string,
  ) {}

  static async open(url: string): Promise<PostgresCpu> {
    const monitor = new Client({ connectionString: url });
    await monitor.connect();
    return new PostgresCpu(monitor, new URL(url).pathname.slice(1));
  }

  async sample(): Promise<Map<number, number>> {
    const { rows } = await this.monitor.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      [this.database],
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // The backend ended between the query and the read.
      }
    }
    return cpu;
  }

  static used(before: Map<number, number>, after: Map<number, number>): number {
    let ms = 0;
    for (const [pid, cpu] of after) ms += cpu - (before.get(pid) ?? 0);
    return ms;
  }

  close(): Promise<void> {
    return this.monitor.end();
  }
}

/** Statements a forked region has sent so far. */
export function roundTripsOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the region did not answer with its round trips')), 5_000);
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('roundTrips' in message)) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(Number((message as { roundTrips: number }).roundTrips));
    };
    child.on('message', onMessage);
    child.send('round-trips');
  });
}

export interface Cost {
  result: LoadResult;
  /** Per request, in µs: the serving process's CPU, the database backends' CPU. */
  nodeUs: number;
  dbUs: number;
  roundTrips: number;
}

/** One round of `run` with the costs read around it; `count` says how many of its requests are counted. */
export async function measure(
  serving: { pid: number; child?: ChildProcess; database?: PostgresCpu },
  run: () => Promise<LoadResult>,
  count: (result: LoadResult) => number = (r) => r.requests,
): Promise<Cost> {
  const db0 = await serving.database?.sample();
  const trips0 = serving.child ? await roundTripsOf(serving.child) : 0;
  const cpu0 = cpuMillis(serving.pid);
  const result = await run();
  const cpu1 = cpuMillis(serving.pid);
  const trips1 = serving.child ? await roundTripsOf(serving.child) : 0;
  const db1 = await serving.database?.sample();
  const n = Math.max(1, count(result));
  return {
    result,
    nodeUs: ((cpu1 - cpu0) * 1000) / n,
    dbUs: db0 && db1 ? (PostgresCpu.used(db0, db1) * 1000) / n : NaN,
    roundTrips: serving.child ? (trips1 - trips0) / n : NaN,
  };
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[(sorted.length - 1) >> 1] : NaN;
};

/** The median of each figure over the rounds (the load figures from the round with the median rate). */
export function medianCost(rounds: Cost[]): Cost {
  const byRate = [...rounds].sort((a, b) => a.result.perSecond - b.result.perSecond);
  return {
    result: byRate[(byRate.length - 1) >> 1].result,
    nodeUs: median(rounds.map((r) => r.nodeUs)),
    dbUs: median(rounds.map((r) => r.dbUs)),
    roundTrips: median(rounds.map((r) => r.roundTrips)),
  };
}
