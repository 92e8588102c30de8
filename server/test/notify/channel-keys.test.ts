// What the channel adapters pass on for crisis messages: the sender name and the dispatch's identity (its
// idempotency key, for email also a Message-ID derived from it), so a provider can show who sends and a repeat after
// a crash or a retry is delivered once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { HttpProviderChannel, SmtpEmailChannel, stableMessageId } from '../../src/notify/channels';

describe('the SMS provider channel', () => {
  let server: Server;
  let url: string;
  const calls: { key: string | undefined; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        calls.push({ key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(raw) });
        res.statusCode = 202;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("sends the idempotency key as a header and the tenant's sender id instead of the default", async () => {
    await new HttpProviderChannel('sms', url, null, 'Alarm').send({
      to: '+46700000001',
      body: 'Evacuate',
      sender: 'DemoSchool',
      idempotencyKey: 'eu-north-1.dispatch-42',
    });
    expect(calls.at(-1)).toEqual({
      key: 'eu-north-1.dispatch-42',
      body: { from: 'DemoSchool', to: '+46700000001', text: 'Evacuate' },
    });
  });

  test('without them, sends no key and the default sender', async () => {
    await new HttpProviderChannel('sms', url, null, 'Alarm').send({ to: '+46700000001', body: 'Code' });
    expect(calls.at(-1)).toEqual({ key: undefined, body: { from: 'Alarm', to: '+46700000001', text: 'Code' } });
  });
});

describe('the email channel', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  const messageIdOf = (raw: string | undefined) => /^Message-ID:\s*(.+)$/im.exec(raw ?? '')?.[1]?.trim();
  const sendOne = async (idempotencyKey?: string) => {
    const channel = new SmtpEmailChannel(`smtp://127.0.0.1:${port}`, 'alarm@product.test');
    await channel.send({
      to: 'erik@example.com',
      subject: 'Message from Demo School',
      body: 'Evacuate',
      sender: 'Demo School',
      idempotencyKey,
    });
    channel.close();
    return received.at(-1)!;
  };

  test('shows the sender name and carries the idempotency key', async () => {
    const raw = await sendOne('eu-north-1.dispatch-7');
    expect(raw).toMatch(/^From: Demo School <alarm@product\.test>/m);
    expect(raw).toMatch(/^X-Idempotency-Key: eu-north-1\.dispatch-7/m);
  });

  test("a repeat of one key is the same message (one Message-ID, from the key and the sender's domain); two keys are two", async () => {
    const first = messageIdOf(await sendOne('eu-north-1.dispatch-7'));
    const repeat = messageIdOf(await sendOne('eu-north-1.dispatch-7'));
    const other = messageIdOf(await sendOne('eu-north-1.dispatch-8'));
    const otherRegion = messageIdOf(await sendOne('se-sto.dispatch-7'));
    expect(first).toBe('<eu-north-1.dispatch-7@product.test>');
    expect(repeat).toBe(first);
    expect(other).toBe('<eu-north-1.dispatch-8@product.test>');
    expect(new Set([first, other, otherRegion]).size).toBe(3);
  });

  test('without a key (one-time codes) every message gets its own random Message-ID', async () => {
    const one = messageIdOf(await sendOne());
    const two = messageIdOf(await sendOne());
    expect(one).toMatch(/^<[^<>@\s]+@[^<>@\s]+>$/);
    expect(two).not.toBe(one);
  });

  test('a key that cannot stand in a Message-ID is replaced by its digest, just as stable', () => {
    const id = stableMessageId('key with spaces <and> brackets', 'Alarm <alarm@product.test>');
    expect(id).toMatch(/^<[0-9a-f]{64}@product\.test>$/);
    expect(stableMessageId('key with spaces <and> brackets', 'alarm@product.test')).toBe(id);
    expect(stableMessageId('eu-north-1.dispatch-1', 'no-domain')).toBe('<eu-north-1.dispatch-1@localhost>');
  });
});
