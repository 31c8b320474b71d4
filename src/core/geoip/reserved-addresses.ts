// Addresses no GeoIP database places (private, loopback, link-local, documentation, multicast...):
// they are answered "unknown" without a lookup, so a server that only sees local traffic (tests,
// development) never loads the database at all.
import { BlockList, isIP } from 'node:net';

const RESERVED: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32],
];

const reserved = new BlockList();
for (const [address, bits] of RESERVED) reserved.addSubnet(address, bits, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** 4 or 6 for an address a database may place; 0 for reserved ranges and non-addresses. */
export function routableVersion(address: string): 0 | 4 | 6 {
  const version = isIP(address);
  if (version === 0) return 0;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  return reserved.check(address, family) ? 0 : (version as 4 | 6);
}
