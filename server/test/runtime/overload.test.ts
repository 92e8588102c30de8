// Overload and slow clients, over real sockets: a body whose Content-Length exceeds the limit is answered 413
// before it is sent, a streamed one as soon as it passes the limit, and a client still sending reads the 413 (not
// a reset); headers that do not arrive within 10 s get the socket closed; connections beyond the bound are closed
// at once. (Requests beyond what the instance holds: test/http/admission.test.ts.)
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/server';
import { createTestContext, type TestContext } from '../support/context';

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server) =>
  new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

/** Opens a socket, writes `text`, and resolves with everything received and the time until the server closed. */
function raw(
  port: number,
  text: string,
  opened?: (socket: Socket) => void,
): Promise<{ received: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      opened?.(socket);
    });
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => resolve({ received, closedAfterMs: Date.now() - started }));
  });
}

/**
 * Sends a POST with `framing` and then `chunk` after chunk (one per turn of the event loop, up to 8 MB) until an
 * answer arrives; resolves with the answer, what was sent before it, a socket error seen before the whole answer
 * arrived (the failure these tests are about) and whether the server closed the connection within 10 s.
 */
function streamBody(
  port: number,
  framing: string,
  chunk: Buffer,
): Promise<{ answer: string; sentBeforeAnswer: number; error?: string; closed: boolean }> {
  return new Promise((resolve) => {
    let answer = '';
    let sent = 0;
    let sentBeforeAnswer = -1;
    let error: string | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      const head = ['POST /core/v1/sessions HTTP/1.1', 'Host: 127.0.0.1', 'cosafe-core-api-version: 1'];
      socket.write([...head, 'Content-Type: application/json', framing, '', ''].join('\r\n'));
      const pump = () => {
        if (sentBeforeAnswer >= 0 || socket.destroyed || sent >= 8 * 1024 * 1024) return;
        sent += chunk.length;
        if (socket.write(chunk)) setImmediate(pump);
        else socket.once('drain', pump);
      };
      pump();
    });
    socket.on('data', (data) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      answer += data;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => void (answer.includes('}}') ? undefined : (error = e.code)));
    socket.on('close', () => resolve({ answer, sentBeforeAnswer, error, closed: true }));
    setTimeout(() => (socket.destroy(), resolve({ answer, sentBeforeAnswer, error, closed: false })), 10_000).unref();
  });
}

/** A 413 in the spec's envelope, with Connection: close. */
function expectRefused(answer: string): void {
  expect(answer).toMatch(/^HTTP\/1\.1 413/);
  expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  expect(JSON.parse(body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, ''))).toMatchObject({
    status: 'error',
    error: { httpStatus: 413, code: 'PAYLOAD_TOO_LARGE' },
  });
}

describe('overload and slow clients', () => {
  let ctx: TestContext;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    server = createHttpServer(ctx.app, ctx.config.runtime);
    port = await listen(server);
  });
  afterAll(async () => {
    await close(server);
    await ctx.close();
  });

  test('a body declared larger than the limit is answered 413 from its headers, before any of it is sent', async () => {
    let answer = '';
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          [
            'POST /core/v1/sessions HTTP/1.1',
            'Host: 127.0.0.1',
            'cosafe-core-api-version: 1',
            'Content-Type: application/json',
            'Content-Length: 50000000',
            '',
            '',
          ].join('\r\n'),
        ),
      );
      socket.on('data', (chunk) => {
        answer += chunk;
        if (answer.includes('}}')) {
          socket.destroy();
          resolve();
        }
      });
      socket.on('error', reject);
      setTimeout(
        () => reject(new Error(`no answer while the body was withheld; got ${JSON.stringify(answer)}`)),
        5_000,
      ).unref();
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, ''))).toMatchObject({
      status: 'error',
      error: { httpStatus: 413, code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  test('a client streaming a body over the limit (no Content-Length) gets the 413 in the envelope, not a reset', async () => {
    // The body is sent chunked, up to 8 MB (the terminating chunk never comes).
    const chunk = Buffer.from(`${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`);
    const outcome = await streamBody(port, 'Transfer-Encoding: chunked', chunk);
    expect(outcome.error).toBeUndefined();
    expectRefused(outcome.answer);
    // Answered once the limit (100 kB) was passed, not after the whole 8 MB; and the connection was then closed.
    expect(outcome.sentBeforeAnswer).toBeLessThan(2 * 1024 * 1024);
    expect(outcome.closed).toBe(true);
  });

  test('a client that sends a declared oversized body anyway reads the 413, not a reset', async () => {
    const outcome = await streamBody(port, `Content-Length: ${8 * 1024 * 1024}`, Buffer.alloc(64 * 1024, 'x'));
    expect(outcome.error).toBeUndefined();
    expectRefused(outcome.answer);
    expect(outcome.closed).toBe(true);
  });

  test('a slow-header client (headers never finished) has its socket closed within 10 s', async () => {
    expect(loadConfig({ NODE_ENV: 'test' }).runtime.headersTimeoutMs).toBe(10_000);
    const { received, closedAfterMs } = await raw(port, 'GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(closedAfterMs).toBeLessThan(12_000);
    expect(closedAfterMs).toBeGreaterThanOrEqual(9_000);
    expect(received).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 30_000);

  test('connections beyond MAX_CONNECTIONS are closed at once', async () => {
    const bounded = createHttpServer(ctx.app, { ...ctx.config.runtime, maxConnections: 2 });
    const boundedPort = await listen(bounded);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        held.push(
          await new Promise<Socket>((resolve) => {
            const s = connect(boundedPort, '127.0.0.1', () => resolve(s));
          }),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
      const third = await raw(boundedPort, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(third.received).toBe('');
      expect(third.closedAfterMs).toBeLessThan(2_000);
    } finally {
      held.forEach((s) => s.destroy());
      await close(bounded);
    }
  });
});
