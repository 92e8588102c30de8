// Each client's share of the connection slots: MAX_CONNECTIONS is one cap for everyone, so one client holding idle
// sockets, or sending headers a byte at a time until HEADERS_TIMEOUT_MS, would take the slots other clients need.
// A client (its addressKey: an IPv4 address, or an IPv6 network prefix) may hold at most `maxPerClient` open
// connections, and at most `maxPendingPerClient` of them may still be waiting for their first request's headers
// (so one client holds at most that many sockets times HEADERS_TIMEOUT_MS of slow-header time at once). A
// connection beyond either share is closed at once, as MAX_CONNECTIONS closes one beyond the cap. The socket's
// address is the client's only when no proxy stands in front (config: off behind TRUST_PROXY unless set).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../shared/client-address';

export interface ConnectionShare {
  /** Open connections per client; 0 turns the share off. */
  maxPerClient: number;
  /** Connections per client still waiting for their first request's headers; 0 turns this part off. */
  maxPendingPerClient: number;
  ipv6PrefixBits: number;
}

/** Counts per key, dropped at zero so the map holds only keys with something counted (also the door's). */
export class Counts {
  private readonly counts = new Map<string, number>();
  get = (key: string) => this.counts.get(key) ?? 0;
  add(key: string): void {
    this.counts.set(key, this.get(key) + 1);
  }
  remove(key: string): void {
    const left = this.get(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

export function shareConnections(server: Server, share: ConnectionShare): void {
  const limitOpen = share.maxPerClient > 0;
  const limitPending = share.maxPendingPerClient > 0;
  if (!limitOpen && !limitPending) return;
  const open = new Counts();
  const pending = new Counts();
  // The socket's first request arrived: it no longer waits for headers.
  const arrived = new WeakMap<Socket, () => void>();

  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? 'unknown', share.ipv6PrefixBits);
    if (
      (limitOpen && open.get(key) >= share.maxPerClient) ||
      (limitPending && pending.get(key) >= share.maxPendingPerClient)
    ) {
      socket.destroy();
      return;
    }
    open.add(key);
    pending.add(key);
    let waiting = true;
    const settle = () => {
      if (!waiting) return;
      waiting = false;
      pending.remove(key);
    };
    arrived.set(socket, settle);
    socket.once('close', () => {
      settle();
      open.remove(key);
    });
  });
  server.on('request', (req) => arrived.get(req.socket)?.());
}
