// The shape of errors answered outside Express's error handlers: refusals at the door (admission.ts) and when
// the HTTP parser refuses a request (headers too large). A part of the API with its own error shape (SCIM) names
// its path prefix, media type and body; modules/registry.ts lists them and the composition root hands them in.
// Paths of no part keep the platform envelope (shedding) or what Node.js answers (the parser).
import type { Socket } from 'node:net';

export interface ErrorShape {
  /** Path prefix, compared case-insensitively (as Express routes). */
  prefix: string;
  contentType: string;
  body(status: number, message: string): unknown;
}

export function shapeOf(shapes: readonly ErrorShape[], path: string): ErrorShape | undefined {
  const lower = path.toLowerCase();
  return shapes.find((s) => lower === s.prefix.toLowerCase() || lower.startsWith(`${s.prefix.toLowerCase()}/`));
}

const reasons: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * The server's `clientError` listener: answers as Node.js does by default (431, 413, 408 or 400 with no body,
 * then closes), except that a request whose line shows a path of a part with its own error shape gets that shape.
 */
export function answerClientError(shapes: readonly ErrorShape[]) {
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    const [status, reason] = reasons[error.code ?? ''] ?? [400, 'Bad Request'];
    const line = /^[A-Z]+ (\/[^ ?\r\n]*)/.exec(error.rawPacket?.subarray(0, 2048).toString('latin1') ?? '');
    const shape = line ? shapeOf(shapes, line[1]) : undefined;
    if (
      socket.writable &&
      (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent !== true
    ) {
      if (shape) {
        const body = Buffer.from(JSON.stringify(shape.body(status, reason)));
        socket.write(
          `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${shape.contentType}\r\nContent-Length: ${body.length}\r\n` +
            'Cache-Control: no-store\r\nConnection: close\r\n\r\n',
        );
        socket.write(body);
      } else {
        socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n\r\n`);
      }
    }
    socket.destroy(error);
  };
}
