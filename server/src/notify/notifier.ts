import type { Config } from '../config';
import type { Db } from '../db/database';
import { HttpProviderChannel, OutboxChannel, SmtpEmailChannel, type Channel, type ChannelName } from './channels';

export type Notifier = Record<ChannelName, Channel> & { close(): void };

export function createNotifier(config: Config, db: Db): Notifier {
  const n = config.notify;
  if (n.transport === 'outbox') {
    return {
      email: new OutboxChannel('email', db),
      sms: new OutboxChannel('sms', db),
      voice: new OutboxChannel('voice', db),
      push: new OutboxChannel('push', db),
      close: () => undefined,
    };
  }
  const email = new SmtpEmailChannel(n.smtpUrl!, n.emailFrom);
  const missing = (name: ChannelName): Channel => ({
    name,
    send: async () => {
      throw new Error(`${name} is not configured`);
    },
  });
  return {
    email,
    sms: new HttpProviderChannel('sms', n.smsApiUrl!, n.smsApiToken, n.smsSender),
    voice: n.voiceApiUrl
      ? new HttpProviderChannel('voice', n.voiceApiUrl, n.voiceApiToken, n.smsSender)
      : missing('voice'),
    push: n.pushApiUrl ? new HttpProviderChannel('push', n.pushApiUrl, n.pushApiToken, n.smsSender) : missing('push'),
    close: () => email.close(),
  };
}
