// One interface per outbound channel. Production sends for real (SMTP, HTTP provider APIs); development keeps
// every message in the database outbox so a developer can read codes and links at GET /dev/outbox.
import { createHash } from 'node:crypto';
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { DispatchChannel } from '../db/column-types';
import type { Db } from '../db/database';
import type { Language } from '../messages/languages';
import { insertOutboxMessage } from './notify.repository';

export type ChannelName = DispatchChannel;

export interface OutgoingMessage {
  to: string;
  subject?: string;
  /** Plain text: the email's text part, the SMS, the voice script, the push text. */
  body: string;
  /** Email only: the HTML part (same content as `body`). */
  html?: string;
  /** The language the message is written in: the email's `lang` and Content-Language, the providers' `language`. */
  language?: Language;
  /** Display name (email) or sender id (SMS, voice, push) instead of the configured default. */
  sender?: string;
  /**
   * Stable per delivery (every attempt of it carries the same one): `idempotency-key` for HTTP providers, which
   * must answer a repeat with success without delivering again; for email `X-Idempotency-Key` and a Message-ID
   * derived from it, so a repeat is the same message to the mail systems.
   */
  idempotencyKey?: string;
}

export interface Channel {
  readonly name: ChannelName;
  send(message: OutgoingMessage): Promise<void>;
}

export class OutboxChannel implements Channel {
  constructor(
    readonly name: ChannelName,
    private readonly db: Db,
  ) {}
  async send(message: OutgoingMessage): Promise<void> {
    await insertOutboxMessage(this.db, this.name, message);
  }
}

export class SmtpEmailChannel implements Channel {
  readonly name = 'email' as const;
  private readonly transport: Transporter;
  constructor(
    smtpUrl: string,
    private readonly from: string,
    options: { timeoutMs?: number } = {},
  ) {
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
      ...(message.html ? { html: message.html } : {}),
      headers: {
        ...(message.language ? { 'Content-Language': message.language } : {}),
        ...(message.idempotencyKey ? { 'X-Idempotency-Key': message.idempotencyKey } : {}),
      },
      // Without a key (one-time codes and the like) nodemailer makes a random Message-ID.
      ...(message.idempotencyKey ? { messageId: stableMessageId(message.idempotencyKey, this.from) } : {}),
    });
  }
  close(): void {
    this.transport.close();
  }
}

const dotAtom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/**
 * The Message-ID of an email with an idempotency key: `<key@domain of the sender address>`, the same for every
 * attempt, so a repeat after a crash or a timeout is the same message and mail systems keep one copy. A key that
 * cannot stand in a Message-ID as it is (RFC 5322 dot-atom) is replaced by its SHA-256, which is just as stable.
 */
export function stableMessageId(idempotencyKey: string, from: string): string {
  const domain = /@([^@\s<>]+)>?\s*$/.exec(from)?.[1];
  const left = dotAtom.test(idempotencyKey)
    ? idempotencyKey
    : createHash('sha256').update(idempotencyKey).digest('hex');
  return `<${left}@${domain && dotAtom.test(domain) ? domain : 'localhost'}>`;
}

export class ChannelDeliveryError extends Error {
  constructor(
    channel: ChannelName,
    readonly status: number | null,
    detail: string,
  ) {
    super(`${channel} provider refused the message (${status ?? 'no answer'}): ${detail}`);
    this.name = 'ChannelDeliveryError';
  }
}

/**
 * SMS, voice and push go through an HTTP provider API: JSON POST with a bearer token and, for dispatches, an
 * `idempotency-key` header. The provider must honour it: a key it has accepted within the last 24 h answers success
 * without delivering again (a repeat comes after a crash or a timeout between its answer and our record of it).
 */
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
        // `language` lets a voice provider pick the voice and a push service localise around the text.
        body: JSON.stringify({
          from: message.sender ?? this.sender,
          to: message.to,
          subject: message.subject,
          text: message.body,
          language: message.language,
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ChannelDeliveryError(this.name, null, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new ChannelDeliveryError(this.name, response.status, (await response.text()).slice(0, 200));
  }
}
