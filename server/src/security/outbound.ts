// Outbound requests to URLs a tenant configures (its identity provider's token, JWKS and userinfo endpoints; any
// later webhook) must not reach the service's own network: loopback, private (RFC 1918), carrier-grade NAT,
// link-local (the cloud metadata service at 169.254.169.254), unique-local IPv6, multicast, reserved and the
// IPv6 forms that embed an IPv4 address are refused. The check runs where the connection is made (undici's
// connector): on the address DNS resolved to, which is the address connected to (no rebinding between check and
// connect), for every request including each redirect, and for literal addresses (which skip DNS). Outside
// production an explicit allow-list (OUTBOUND_ALLOWED_ADDRESSES) may admit internal ranges, e.g. the development
// identity provider on loopback.
//
// Every way such a request can fail to get an answer (refused address, DNS failure, connection refused or reset,
// timeout, TLS failure) is one error, so the answers cannot be used to map the internal network.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A global unicast address: not loopback, private, link-local, unique-local, CGNAT, multicast, reserved, ... */
export function isPublicAddress(text: string): boolean {
  let address: Address;
  try {
    // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it carries.
    address = ipaddr.process(text.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  // IPv6: global unicast is 2000::/3; inside it, ipaddr names the special blocks (6to4, Teredo, documentation, ...).
  return address.range() === 'unicast' && address.match(ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number]);
}

/** Ranges ("127.0.0.0/8", "::1", "10.1.2.3") parsed once; see OUTBOUND_ALLOWED_ADDRESSES. */
export function parseAllowList(entries: string[]): [Address, number][] {
  return entries.map((entry) => {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  });
}

export interface OutboundPolicy {
  allows(address: string): boolean;
}

export function outboundPolicy(allowList: string[]): OutboundPolicy {
  const ranges = parseAllowList(allowList);
  return {
    allows(text: string) {
      if (isPublicAddress(text)) return true;
      let address: Address;
      try {
        address = ipaddr.process(text.replace(/^\[|\]$/g, ''));
      } catch {
        return false;
      }
      return ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range as never, bits));
    },
  };
}

/** The one error of an outbound request that got no usable answer; the cause stays in the logs only. */
export class OutboundUnreachable extends Error {
  constructor(readonly reason: string) {
    super('The remote service could not be reached');
    this.name = 'OutboundUnreachable';
  }
}

/** dns.lookup, refusing names whose addresses are not all allowed (the address checked is the one connected to). */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !policy.allows(a.address));
      if (refused || addresses.length === 0)
        return callback(Object.assign(new Error('refused internal address'), { code: 'EOUTBOUNDREFUSED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface OutboundClient {
  /** fetch through the guarded connector; any failure to get an answer rejects with OutboundUnreachable. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export function outboundClient(policy: OutboundPolicy, options: { connectTimeoutMs?: number } = {}): OutboundClient {
  const connector = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    lookup: guardedLookup(policy),
  } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect(opts, callback) {
      // A literal address skips DNS (and so the lookup above): check it here.
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !policy.allows(host))
        return callback(Object.assign(new Error('refused internal address'), { code: 'EOUTBOUNDREFUSED' }), null);
      return connector(opts, callback);
    },
  });
  return {
    async fetch(url, init) {
      try {
        return (await undiciFetch(url, { ...(init as object), dispatcher: agent } as never)) as unknown as Response;
      } catch (error) {
        // An abort by the caller's own signal (its timeout) is the caller's to map; everything else is one error.
        if ((init?.signal as AbortSignal | undefined)?.aborted) throw error;
        throw new OutboundUnreachable(reasonOf(error));
      }
    },
    close: () => agent.close(),
  };
}

function reasonOf(error: unknown): string {
  const e = error as { cause?: { code?: string; message?: string }; message?: string };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'unknown';
}
