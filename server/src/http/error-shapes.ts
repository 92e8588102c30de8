// The shape of errors answered outside Express's error handlers: refusals at the door (admission.ts) and when
// the HTTP parser refuses a request (headers too large). A part of the API with its own error shape (SCIM) names
// its path prefix, media type and body; modules/registry.ts lists them and the composition root hands them in.
// Paths of no part under /core get the platform envelope, with the security headers and X-Request-Id every answer
// carries; elsewhere the parser's answer is what Node.js answers.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { ApiError, type ErrorCode } from '../errors';

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

/** The platform's code of each status the parser answers with (408 has none: it is answered as Node.js does). */
const platformCodes: Partial<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  413: 'PAYLOAD_TOO_LARGE',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

/**
 * The server's `clientError` listener: answers as Node.js does by default (431, 413, 408 or 400 with no body,
 * then closes), except that a request whose line shows a path of a part with its own error shape gets that shape.
 */
export function answerClientError(shapes: readonly ErrorShape[], answerHeaders: Readonly<Record<string, string>> = {}) {
  const extra = Object.entries(answerHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    const [status, reason] = reasons[error.code ?? ''] ?? [400, 'Bad Request'];
    const line = /^[A-Z]+ (\/[^ ?\r\n]*)/.exec(error.rawPacket?.subarray(0, 2048).toString('latin1') ?? '');
    const shape = line ? shapeOf(shapes, line[1]) : undefined;
    const code = platformCodes[status];
    const platform = line !== null && code !== undefined && /^\/core(?:\/|$)/.test(line[1]);
    if (
      socket.writable &&
      (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent !== true
    ) {
      if (shape || platform) {
        const requestId = randomUUID();
        const [contentType, payload] = shape
          ? [shape.contentType, shape.body(status, reason)]
          : ['application/json; charset=utf-8', new ApiError(code!, { message: reason }).toBody(requestId)];
        const body = Buffer.from(JSON.stringify(payload));
        socket.write(
          `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n` +
            `Cache-Control: no-store\r\n${extra}x-request-id: ${requestId}\r\nConnection: close\r\n\r\n`,
        );
        socket.write(body);
      } else {
        socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n\r\n`);
      }
    }
    socket.destroy(error);
  };
}
