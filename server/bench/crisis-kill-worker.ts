// Child of crisis-kill.ts: one region instance that delivers jobs, recording every send it hands to a channel
// adapter in a file (synchronously, so what the file says was sent is exactly what the adapter received).
import { appendFileSync } from 'node:fs';
import { buildServices } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import type { Channel, ChannelName, OutgoingMessage } from '../src/notify/channels';

const out = process.env.SENT_FILE!;

export function recordingChannel(name: ChannelName, file: string): Channel {
  return {
    name,
    send: async (message: OutgoingMessage) => {
      await new Promise((r) => setTimeout(r, 1));
      appendFileSync(file, `${message.idempotencyKey}\n`);
    },
  };
}

async function main() {
  const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: 'warn' });
  const services = await buildServices(config, { logger: createLogger('warn') });
  Object.assign(services.notifier, { email: recordingChannel('email', out), sms: recordingChannel('sms', out) });
  services.jobs.start();
  process.send?.('started');
}

if (require.main === module) void main();
