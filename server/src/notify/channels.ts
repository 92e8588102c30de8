// One interface per outbound channel. Production sends for real (SMTP, HTTP provider APIs); development keeps
// every message in the database outbox so a developer can read codes and links at GET /dev/outbox.
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { Db } from '../db/database';

export type ChannelName = 'email' | 'sms' | 'voice' | 'push';

export interface OutgoingMessage {
  to: string;
  subject?: string;
  body: string;
  /** Display name (email) or sender id (SMS, voice, push) instead of the configured default. */
  sender?: string;
  /** Stable per delivery, so a provider that honours it drops a repeat after a retry. */
  idempotencyKey?: string;
}

export interface Channel {
  readonly name: ChannelName;
  send(message: OutgoingMessage): Promise<void>;
}

export class OutboxChannel implements Channel {
  constructor(readonly name: ChannelName, private readonly db: Db) {}
  async send(message: OutgoingMessage): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({ channel: this.name, recipient: message.to, subject: message.subject ?? null, body: message.body })
      .execute();
  }
}

export class SmtpEmailChannel implements Channel {
  readonly name = 'email' as const;
  private readonly transport: Transporter;
  constructor(smtpUrl: string, private readonly from: string, options: { timeoutMs?: number } = {}) {
    const timeout = options.timeoutMs ?? 15_000;
    // Timeouts belong to the transport (a URL plus options); given as the second argument they would only be
    // message defaults, and a hung server could hold a send for nodemailer's default of minutes.
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    } as TransportOptions);
  }
  async send(message: OutgoingMessage): Promise<void> {
    await this.transport.sendMail({
      from: message.sender ? { name: message.sender, address: this.from } : this.from,
      to: message.to,
      subject: message.subject ?? '',
      text: message.body,
      ...(message.idempotencyKey ? { headers: { 'X-Idempotency-Key': message.idempotencyKey } } : {}),
    });
  }
  close(): void {
    this.transport.close();
  }
}

export class ChannelDeliveryError extends Error {
  constructor(channel: ChannelName, readonly status: number | null, detail: string) {
    super(`${channel} provider refused the message (${status ?? 'no answer'}): ${detail}`);
    this.name = 'ChannelDeliveryError';
  }
}

/** SMS, voice and push go through an HTTP provider API: JSON POST with a bearer token. */
export class HttpProviderChannel implements Channel {
  constructor(
    readonly name: ChannelName,
    private readonly url: string,
    private readonly token: string | null,
    private readonly sender: string,
    private readonly timeoutMs = 10_000,
  ) {}
  async send(message: OutgoingMessage): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
          ...(message.idempotencyKey ? { 'idempotency-key': message.idempotencyKey } : {}),
        },
        body: JSON.stringify({ from: message.sender ?? this.sender, to: message.to, subject: message.subject, text: message.body }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ChannelDeliveryError(this.name, null, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new ChannelDeliveryError(this.name, response.status, (await response.text()).slice(0, 200));
  }
}
