// The coarse client a security event keeps: the network of its address and its user agent, cut short. Never the
// address itself: an administrator learns "a failed sign-in from a new network", not where someone lives.
import ipaddr from 'ipaddr.js';

/** Where and from what an event happened, as stored. */
export interface EventClient {
  region: string;
  network: string | null;
  userAgent: string | null;
}

export const ipv4NetworkBits = 24;
export const ipv6NetworkBits = 48;
export const userAgentMaxLength = 256;

/**
 * The network of `address`: IPv4 /24, IPv6 /48 (an IPv4-mapped IPv6 address counts as IPv4); null when it is no
 * address (a test's socket, a missing one).
 */
export function networkOf(address: string | null | undefined): string | null {
  if (!address) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return null;
  }
  const bits = parsed.kind() === 'ipv4' ? ipv4NetworkBits : ipv6NetworkBits;
  const bytes = parsed.toByteArray();
  for (let bit = bits; bit < bytes.length * 8; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${bits}`;
}

/** The user agent as kept: trimmed, control characters dropped, at most userAgentMaxLength characters; null if empty. */
export function coarseUserAgent(userAgent: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex
  const cleaned = (userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned ? cleaned.slice(0, userAgentMaxLength) : null;
}

/** The client of a request: its region, the network of its address, its user agent. */
export function eventClient(region: string, address?: string | null, userAgent?: string | null): EventClient {
  return { region, network: networkOf(address), userAgent: coarseUserAgent(userAgent) };
}

/** The client of the operator tool or the system: the region, no network, no user agent. */
export const regionOnly = (region: string): EventClient => ({ region, network: null, userAgent: null });
