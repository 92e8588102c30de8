import ipaddr from 'ipaddr.js';

/** The client's address as Express resolved it (behind a trusted proxy, from X-Forwarded-For), for throttling. */
export const clientAddress = (req: { ip?: string; socket: { remoteAddress?: string } }) =>
  req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The key that per-client limits count under: an IPv4 address as it is, an IPv6 address by its network prefix
 * (`ipv6PrefixBits`, /64 by default: one customer's link, which hands its devices as many addresses as they like).
 * IPv4-mapped IPv6 addresses count as the IPv4 address. Anything that is not an address is its own key.
 */
export function addressKey(address: string, ipv6PrefixBits = 64): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = (parsed as ipaddr.IPv6).toByteArray();
  for (let bit = ipv6PrefixBits; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixBits}`;
}

/** The key per-client limits count `req`'s client under (addressKey of its address). */
export const clientKey = (req: { ip?: string; socket: { remoteAddress?: string } }, ipv6PrefixBits: number) =>
  addressKey(clientAddress(req), ipv6PrefixBits);

/**
 * The coarse network of an address, as a person may be shown it (where a session signed in from): an IPv4 address's
 * /24, an IPv6 address's /48 (an IPv4-mapped IPv6 address as its IPv4 /24), in CIDR form; never the full address.
 * Null for anything that is not an address.
 */
export function coarseNetwork(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return null;
  }
  const bits = parsed.kind() === 'ipv4' ? 24 : 48;
  const bytes = parsed.toByteArray();
  for (let bit = bits; bit < bytes.length * 8; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${bits}`;
}

/** The longest user agent a session keeps (a longer one is cut): enough to tell a browser and a system apart. */
export const userAgentMaxLength = 256;

/** Where a sign-in comes from, as its session keeps it: the user agent (cut) and the coarse network. */
export interface SignInClient {
  userAgent: string | null;
  network: string | null;
}

export const signInClient = (req: {
  ip?: string;
  socket: { remoteAddress?: string };
  headers: Record<string, string | string[] | undefined>;
}): SignInClient => {
  const agent = req.headers['user-agent'];
  const userAgent = typeof agent === 'string' && agent.length > 0 ? agent.slice(0, userAgentMaxLength) : null;
  return { userAgent, network: coarseNetwork(clientAddress(req)) };
};

/** A sign-in whose client is not known (an operator's tool, a test): the session shows no device and no network. */
export const unknownClient: SignInClient = { userAgent: null, network: null };
