// Attack: connection slots are one global cap (MAX_CONNECTIONS), so one client holding sockets (idle, or sending
// its headers a byte at a time) takes the slots everyone else needs: 100 held sockets made 19 of 50 legitimate
// requests fail. Each client (an IPv4 address, or an IPv6 network prefix) gets a share: at most
// MAX_CONNECTIONS_PER_CLIENT open connections and at most MAX_PENDING_HEADERS_PER_CLIENT still waiting for their
// first request's headers; beyond that its new connections are closed at once, and other clients are served.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/server';
import { createTestContext, type TestContext } from '../support/context';

const attacker = '127.0.0.2';
const victim = '127.0.0.3';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function serve(overrides: Partial<TestContext['config']['runtime']>): Promise<{ server: Server; port: number }> {
  const server = createHttpServer(ctx.app, { ...ctx.config.runtime, ...overrides });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return { server, port };
}
const stop = (server: Server) =>
  new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

/** A socket from `from`, connected; it writes `text` (nothing: an idle socket) and is held open. */
function hold(port: number, from: string, text = ''): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      if (text) socket.write(text);
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

/** One GET /healthz on its own connection from `from`: the status line, or '' when the connection was closed. */
function get(port: number, from: string): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
const stillOpen = (sockets: Socket[]) => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;

describe('a per-client share of connection slots and of slow-header time', () => {
  test('100 idle sockets from one address leave every request of another address answered', async () => {
    const { server, port } = await serve({
      maxConnections: 60,
      maxConnectionsPerClient: 20,
      maxPendingHeadersPerClient: 10,
    });
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 100; i++) held.push(await hold(port, attacker));
      await settle();
      expect(stillOpen(held)).toBeLessThanOrEqual(10);
      const answers: string[] = [];
      for (let i = 0; i < 30; i++) answers.push(await get(port, victim));
      expect(answers.filter((line) => line.startsWith('HTTP/1.1 200'))).toHaveLength(30);
    } finally {
      held.forEach((s) => s.destroy());
      await stop(server);
    }
  });

  test('slow headers: one address may keep only its share of sockets waiting for headers', async () => {
    const { server, port } = await serve({
      maxConnections: 60,
      maxConnectionsPerClient: 20,
      maxPendingHeadersPerClient: 5,
    });
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 30; i++)
        held.push(await hold(port, attacker, 'GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
      await settle();
      expect(stillOpen(held)).toBe(5);
      // Its own further requests wait for a slot too, while another address is served.
      expect(await get(port, attacker)).toBe('');
      expect(await get(port, victim)).toMatch(/^HTTP\/1\.1 200/);
      // A slot freed is a slot back.
      held.forEach((s) => s.destroy());
      await settle();
      expect(await get(port, attacker)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      held.forEach((s) => s.destroy());
      await stop(server);
    }
  });

  test('open connections that finished their headers count towards the per-client share', async () => {
    const { server, port } = await serve({
      maxConnections: 60,
      maxConnectionsPerClient: 8,
      maxPendingHeadersPerClient: 8,
    });
    const held: Socket[] = [];
    try {
      // Keep-alive connections, each after a complete request.
      for (let i = 0; i < 20; i++)
        held.push(await hold(port, attacker, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
      await settle();
      expect(stillOpen(held)).toBe(8);
      expect(await get(port, victim)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      held.forEach((s) => s.destroy());
      await stop(server);
    }
  });

  test('attack: a burst of 200 connections at once from one shared address without a proxy (a school behind one NAT): none is reset', async () => {
    const { server, port } = await serve({});
    try {
      // The 200 connect at once, and their headers follow as the network delivers them: all are waiting at once.
      const sockets = await Promise.all(Array.from({ length: 200 }, () => hold(port, '127.0.0.9')));
      await settle();
      const answers = await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<string>((resolve) => {
              let received = '';
              socket.on('data', (chunk) => (received += chunk));
              socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
              // A reset closes at once; a loaded machine may take long to answer 200, which is not a reset.
              socket.setTimeout(60_000, () => socket.destroy());
              if (socket.destroyed) resolve('');
              else socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
            }),
        ),
      );
      expect(answers.filter((line) => line !== 'HTTP/1.1 200 OK')).toEqual([]);
    } finally {
      await stop(server);
    }
  });

  test('defaults: 512 connections and 256 waiting for headers per client, keyed like every per-client limit', () => {
    const runtime = loadConfig({ NODE_ENV: 'test' }).runtime;
    expect([runtime.maxConnections, runtime.maxConnectionsPerClient, runtime.maxPendingHeadersPerClient]).toEqual([
      4096, 512, 256,
    ]);
    expect(loadConfig({ NODE_ENV: 'test', MAX_CONNECTIONS_PER_CLIENT: '100' }).runtime.maxConnectionsPerClient).toBe(
      100,
    );
  });

  test("behind a trusted proxy the sockets are the proxy's, so the share is off unless set", () => {
    const behind = loadConfig({ NODE_ENV: 'test', TRUST_PROXY: '1' }).runtime;
    expect([behind.maxConnectionsPerClient, behind.maxPendingHeadersPerClient]).toEqual([0, 0]);
    const set = loadConfig({
      NODE_ENV: 'test',
      TRUST_PROXY: '1',
      MAX_CONNECTIONS_PER_CLIENT: '100',
      MAX_PENDING_HEADERS_PER_CLIENT: '10',
    }).runtime;
    expect([set.maxConnectionsPerClient, set.maxPendingHeadersPerClient]).toEqual([100, 10]);
  });
});
