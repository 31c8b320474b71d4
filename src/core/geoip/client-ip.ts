// The client address capture records in `$ip`: the socket peer, or the leftmost address of
// X-Forwarded-For when the peer is a proxy the operator trusts (PostHog reads the leftmost address
// and trusts the header always; Hoglet may face clients directly, so only trusted peers count).
// A client can send any `$ip` in the body anyway, so this guards accuracy, not security.
import { BlockList, isIP } from 'node:net';

/** `true`: every peer; `false`: none; else comma-separated addresses, CIDR ranges and range names. */
export type TrustedProxies = boolean | string;

/** Named ranges, as Fastify's trustProxy (proxy-addr) names them. */
const NAMED_RANGES: Record<string, Array<[string, number]>> = {
  loopback: [['127.0.0.0', 8], ['::1', 128]],
  linklocal: [['169.254.0.0', 16], ['fe80::', 10]],
  uniquelocal: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]],
};

/** Capture's default when the operator says nothing: proxies on this machine or a private network. */
export const DEFAULT_CAPTURE_TRUSTED_PROXIES = 'loopback,uniquelocal';

/** Whether a peer address is a trusted proxy. */
export type ProxyTrust = (address: string) => boolean;

export function proxyTrust(trusted: TrustedProxies): ProxyTrust {
  if (typeof trusted === 'boolean') return () => trusted;
  const list = new BlockList();
  for (const entry of trusted.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    for (const [address, bits] of NAMED_RANGES[entry] ?? [parseRange(entry)]) {
      list.addSubnet(address, bits, isIP(address) === 6 ? 'ipv6' : 'ipv4');
    }
  }
  return (address) => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 6 ? 'ipv6' : 'ipv4');
  };
}

function parseRange(entry: string): [string, number] {
  const [address = '', bits] = entry.split('/');
  const version = isIP(address);
  if (version === 0) throw new Error(`not an address or CIDR range: "${entry}"`);
  return [address, bits === undefined ? (version === 6 ? 128 : 32) : Number(bits)];
}

/**
 * The client's address: the leftmost X-Forwarded-For entry when the peer is trusted, else the
 * peer's; plain (no port, no brackets, IPv4-mapped IPv6 as IPv4). Null when neither is an address.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust): string | null {
  const socket = plainAddress(peer);
  if (forwardedFor !== undefined && trust(socket ?? '')) {
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const leftmost = plainAddress(header.split(',')[0]);
    if (leftmost !== null) return leftmost;
  }
  return socket;
}

/** `1.2.3.4:5678`, `[::1]:80`, `::ffff:1.2.3.4` and ` 1.2.3.4 ` as plain addresses; null for anything else. */
export function plainAddress(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) text = mapped[1]!;
  return isIP(text) === 0 ? null : text.toLowerCase();
}
