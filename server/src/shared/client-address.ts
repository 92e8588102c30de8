/** The client's address as Express resolved it (behind a trusted proxy, from X-Forwarded-For), for throttling. */
export const clientAddress = (req: { ip?: string; socket: { remoteAddress?: string } }) =>
  req.ip ?? req.socket.remoteAddress ?? 'unknown';
