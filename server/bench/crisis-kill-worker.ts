// Child of crisis-kill.ts: one region instance that delivers jobs through recording channels that stand in for the
// provider adapters. Every request is written to a file synchronously (so the file is exactly what the provider
// received, also for a process killed a moment later), one line each: channel, address, idempotency key, and
// whether the provider delivered it or answered a repeat.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import type { Channel, ChannelName, OutgoingMessage } from '../src/notify/channels';

const out = process.env.SENT_FILE!;

export interface ProviderRequest {
  channel: string;
  to: string;
  key: string;
  delivered: boolean;
}

export function readRequests(file: string): ProviderRequest[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [channel, to, key, outcome] = line.split('\t');
      return { channel, to, key, delivered: outcome === 'delivered' };
    });
}

/**
 * A model of the providers behind the adapters, as they are required to behave (docs/decisions.md, "Dispatches"):
 * a request whose idempotency key was delivered before answers success and is not delivered again; a request
 * without a key is always delivered. Its memory is the file, so it outlives the processes that send to it, as a
 * provider's does: an instance started after a kill loads what the dead one sent.
 */
export class RecordingProvider {
  private readonly seen: Set<string>;
  constructor(private readonly file: string) {
    this.seen = new Set(
      readRequests(file)
        .filter((r) => r.delivered && r.key !== '')
        .map((r) => r.key),
    );
  }
  channel(name: ChannelName): Channel {
    return {
      name,
      send: async (message: OutgoingMessage) => {
        await new Promise((r) => setTimeout(r, 1));
        const key = message.idempotencyKey ?? '';
        const delivered = key === '' || !this.seen.has(key);
        if (key !== '') this.seen.add(key);
        appendFileSync(this.file, `${name}\t${message.to}\t${key}\t${delivered ? 'delivered' : 'repeat'}\n`);
      },
    };
  }
}

async function main() {
  const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: 'warn' });
  const services = await buildServices(config, { logger: createLogger('warn') });
  const provider = new RecordingProvider(out);
  Object.assign(services.notifier, { email: provider.channel('email'), sms: provider.channel('sms') });
  services.jobs.start();
  process.send?.('started');
}

if (require.main === module) void main();
