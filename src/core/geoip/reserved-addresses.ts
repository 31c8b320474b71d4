// Addresses no GeoIP database places (private, loopback, link-local, documentation, multicast...):
// they are answered "unknown" without a lookup, so a server that only sees local traffic (tests,
// development) never loads the database at all. Checked with integer masks: node:net's BlockList
// builds a native SocketAddress per check, which cost 15-40 µs per new address (issue 30).
import { isIP } from 'node:net';

const RESERVED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

/** IPv6 ranges by their first 32 bits (each is at least that wide), plus the two single addresses. */
const RESERVED_V6: Array<[string, number]> = [['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32]];

const v4Masks = RESERVED_V4.map(([address, bits]) => masked(ipv4Number(address), bits));
const v6Masks = RESERVED_V6.map(([address, bits]) => masked(high32(ipv6Hextets(address)), bits));

/** 4 or 6 for an address a database may place; 0 for reserved ranges and non-addresses. */
export function routableVersion(address: string): 0 | 4 | 6 {
  const version = isIP(address);
  if (version === 4) return inRanges(ipv4Number(address), v4Masks) ? 0 : 4;
  if (version !== 6) return 0;
  const hextets = ipv6Hextets(address);
  // `::` and `::1` (unspecified, loopback): the first seven groups zero, the last 0 or 1.
  if (hextets.slice(0, 7).every((h) => h === 0) && hextets[7]! <= 1) return 0;
  // IPv4-mapped (`::ffff:10.0.0.1`) is checked against the IPv4 ranges, as BlockList does.
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return inRanges(((hextets[6]! << 16) | hextets[7]!) >>> 0, v4Masks) ? 0 : 6;
  }
  return inRanges(high32(hextets), v6Masks) ? 0 : 6;
}

function masked(value: number, bits: number): { mask: number; network: number } {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { mask, network: (value & mask) >>> 0 };
}

function inRanges(value: number, ranges: ReadonlyArray<{ mask: number; network: number }>): boolean {
  return ranges.some(({ mask, network }) => ((value & mask) >>> 0) === network);
}

/** A dotted IPv4 address (isIP said so) as an unsigned 32-bit number. */
function ipv4Number(address: string): number {
  const [a, b, c, d] = address.split('.').map(Number);
  return ((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0;
}

/** An IPv6 address (isIP said so) as its eight 16-bit groups; a zone (`%eth0`) is ignored. */
function ipv6Hextets(address: string): number[] {
  let text = address.split('%')[0]!;
  // A trailing dotted IPv4 part (`::ffff:1.2.3.4`) is two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4Number(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function high32(hextets: readonly number[]): number {
  return ((hextets[0]! << 16) | hextets[1]!) >>> 0;
}
