// What the channel adapters pass on for crisis messages: the sender name and the dispatch's idempotency key, so a
// provider can show who sends and drop a repeat after a retry.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { HttpProviderChannel, SmtpEmailChannel } from '../../src/notify/channels';

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

  test('sends the idempotency key as a header and the tenant\'s sender id instead of the default', async () => {
    await new HttpProviderChannel('sms', url, null, 'Alarm').send({ to: '+46700000001', body: 'Evacuate', sender: 'DemoSchool', idempotencyKey: 'dispatch-42' });
    expect(calls.at(-1)).toEqual({ key: 'dispatch-42', body: { from: 'DemoSchool', to: '+46700000001', text: 'Evacuate' } });
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

  test('shows the sender name and carries the idempotency key', async () => {
    const channel = new SmtpEmailChannel(`smtp://127.0.0.1:${port}`, 'alarm@product.test');
    await channel.send({ to: 'erik@example.com', subject: 'Message from Demo School', body: 'Evacuate', sender: 'Demo School', idempotencyKey: 'dispatch-7' });
    channel.close();
    expect(received.at(-1)).toMatch(/^From: Demo School <alarm@product\.test>/m);
    expect(received.at(-1)).toMatch(/^X-Idempotency-Key: dispatch-7/m);
  });
});
