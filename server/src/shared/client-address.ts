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
 * Where a sign-in comes from, as its session keeps it: the user agent (cut short) and the coarse network of the
 * address (IPv4 /24, IPv6 /48; never the address itself). Built from the request like a security event's client.
 */
export interface SignInClient {
  userAgent: string | null;
  network: string | null;
}

/** A sign-in whose client is not known (an operator's tool, a test): the session shows no device and no network. */
export const unknownClient: SignInClient = { userAgent: null, network: null };
