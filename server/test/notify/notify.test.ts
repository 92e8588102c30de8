import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { ChannelDeliveryError, HttpProviderChannel, SmtpEmailChannel } from '../../src/notify/channels';
import { generateSigningKey } from '../../src/security/secrets';
import { createTestContext, type TestContext } from '../support/context';

describe('email through SMTP', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: { from: string; to: string[]; data: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  test('delivers the message to the SMTP server', async () => {
    const channel = new SmtpEmailChannel(`smtp://127.0.0.1:${port}`, 'alarm@product.test');
    await channel.send({ to: 'erik@demo.test', subject: 'Your code', body: 'Your code is 123456' });
    channel.close();
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual(['erik@demo.test']);
    expect(received[0].from).toBe('alarm@product.test');
    expect(received[0].data).toContain('Subject: Your code');
    expect(received[0].data).toContain('Your code is 123456');
  });

  test('gives up on a server that accepts the connection but never greets, after the timeout', async () => {
    const silent = createNetServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const channel = new SmtpEmailChannel(
      `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      'alarm@product.test',
      { timeoutMs: 500 },
    );
    const started = Date.now();
    await expect(channel.send({ to: 'a@b.test', subject: 's', body: 'b' })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    channel.close();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  test('fails when no SMTP server answers', async () => {
    const closed = new SmtpEmailChannel('smtp://127.0.0.1:1', 'alarm@product.test', { timeoutMs: 2_000 });
    await expect(closed.send({ to: 'a@b.test', subject: 's', body: 'b' })).rejects.toThrow();
    closed.close();
  });
});

describe('SMS through the provider API', () => {
  let server: Server;
  let url: string;
  let answer = 202;
  const calls: { auth: string | undefined; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        calls.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
        res.statusCode = answer;
        res.end(answer < 300 ? '{"id":"1"}' : 'provider down');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('posts the message with the configured credentials', async () => {
    answer = 202;
    await new HttpProviderChannel('sms', url, 'sms-token', 'Alarm').send({ to: '+46700000001', body: 'Code 654321' });
    expect(calls.at(-1)).toEqual({
      auth: 'Bearer sms-token',
      body: { from: 'Alarm', to: '+46700000001', text: 'Code 654321' },
    });
  });

  test('a refusal from the provider is an error, so the caller can retry', async () => {
    answer = 503;
    await expect(
      new HttpProviderChannel('sms', url, null, 'Alarm').send({ to: '+46700000001', body: 'x' }),
    ).rejects.toBeInstanceOf(ChannelDeliveryError);
  });
});

describe('the development outbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  test('stores messages and serves them newest first, filtered by address', async () => {
    await ctx.services.notifier.email.send({ to: 'anna@demo.test', subject: 'First', body: 'one' });
    await ctx.services.notifier.sms.send({ to: '+46700000001', body: 'two' });
    await ctx.services.notifier.email.send({ to: 'anna@demo.test', subject: 'Second', body: 'three' });
    const res = await request(ctx.app).get('/dev/outbox').query({ to: 'anna@demo.test' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(res.body.data[0]).toEqual({
      channel: 'email',
      to: 'anna@demo.test',
      subject: 'Second',
      body: 'three',
      createdAt: expect.any(String),
    });
  });

  test('does not exist in production', async () => {
    const prod = await createTestContext({
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://unused.invalid/db',
        ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([await generateSigningKey('prod-1')]),
        SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        NOTIFY_TRANSPORT: 'live',
        SMTP_URL: 'smtp://127.0.0.1:1',
        SMS_API_URL: 'http://127.0.0.1:1/sms',
        SIGN_IN_APP_URL: 'https://login.product.test',
        WEBAUTHN_RP_ID: 'login.product.test',
        WEBAUTHN_ORIGINS: 'https://login.product.test',
        PUBLIC_BASE_URL: 'https://api.product.test',
      },
    });
    try {
      const res = await request(prod.app).get('/dev/outbox');
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    } finally {
      await prod.close();
    }
  });
});
