// Wakes the local scheduler when another instance (or this one) enqueues a job: a dedicated PostgreSQL connection
// LISTENs to `core_jobs`, which a statement trigger on `jobs` notifies on commit. While connected the scheduler
// sleeps between jobs instead of polling; when the connection drops it polls again until it is back.
import { Client } from 'pg';
import type { Logger } from '../logger';
import { listenerNamePrefix, type JobScheduler } from './scheduler';

export interface JobListener {
  close(): Promise<void>;
}

export const jobChannel = 'core_jobs';

export function listenForJobs(url: string, scheduler: JobScheduler, logger: Logger, retryMs = 1_000): JobListener {
  let client: Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const lost = (error?: unknown) => {
    scheduler.setSignalConnected(false);
    const old = client;
    client = null;
    old?.removeAllListeners();
    old?.on('error', () => undefined);
    void old?.end().catch(() => undefined);
    if (closed || retry) return;
    if (error) logger.warn({ err: error }, 'job wake-up connection lost; polling until it is back');
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, retryMs);
    retry.unref();
  };

  const connect = async () => {
    // Named, so the instances sharing the jobs' timers know each other (scheduler.ts, listenerNamePrefix).
    const c = new Client({ connectionString: url, application_name: `${listenerNamePrefix}${scheduler.peerId}` });
    client = c;
    c.on('error', lost);
    c.on('end', () => client === c && lost());
    c.on('notification', () => scheduler.wake());
    try {
      await c.connect();
      await c.query(`listen ${jobChannel}`);
      if (closed || client !== c) return void c.end().catch(() => undefined);
      scheduler.setSignalConnected(true);
      // Anything enqueued while we were not listening runs now.
      scheduler.wake();
    } catch (error) {
      if (client === c) lost(error);
    }
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      scheduler.setSignalConnected(false);
      const c = client;
      client = null;
      c?.removeAllListeners();
      c?.on('error', () => undefined);
      await c?.end().catch(() => undefined);
    },
  };
}
