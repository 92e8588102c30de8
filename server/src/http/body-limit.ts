// Bodies over the limit that are streamed, and the close after a refused body.
// - A body sent without a Content-Length (chunked) cannot be refused from its headers (overload.ts refuses a
//   declared one). The body parser stops storing it at the limit but then reads the rest to its end before it
//   answers, so a client streaming a large body waited for the whole upload, or for the request timeout. Here its
//   bytes are counted as they arrive and, once past the limit, it is answered 413 at once, with Connection: close.
// - Closing a socket whose client is still sending makes the kernel answer the unread data with a reset, which
//   can destroy the 413 before the client reads it (a connection reset instead of the answer). A connection that
//   the server closes is therefore closed gently: its side is ended (the answer, then FIN), what the client still
//   sends is read and dropped, and the socket is destroyed when the client closes its side or after lingerMs.
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';

/** How long a closing connection keeps reading (and dropping) what its client still sends. */
export const lingerMs = 3_000;

/** Runs `parser`, answering 413 as soon as a body without a Content-Length passes `limitBytes` on the wire. */
export function limitStreamedBody(parser: RequestHandler, limitBytes: number): RequestHandler {
  return (req, res, next) => {
    let refused = false;
    let settled = false;
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limitBytes || refused) return;
      refused = true;
      req.off('data', count);
      res.set('Connection', 'close');
      // The rest is read and dropped while the answer goes out.
      req.resume();
      next(new ApiError('PAYLOAD_TOO_LARGE', { message: 'The body is too large' }));
    };
    parser(req, res, (error?: unknown) => {
      settled = true;
      req.off('data', count);
      if (!refused) next(error);
    });
    // A parser still reading has attached its reader synchronously: this one sees the same chunks from now on.
    if (!settled && req.headers['content-length'] === undefined && !req.readableEnded) req.on('data', count);
  };
}

/** Makes the server's closes of `socket` gentle (see above). For every connection of the HTTP server. */
export function closeGently(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    let answered = this.writableFinished;
    let ended = this.readableEnded;
    const settle = () => ((answered && ended) || this.destroyed ? this.destroy() : undefined);
    const timer = setTimeout(() => this.destroy(), lingerMs).unref();
    this.once('close', () => clearTimeout(timer));
    this.once('finish', () => ((answered = true), settle()));
    this.once('end', () => ((ended = true), settle()));
    settle();
  };
}
