// A person's id is a UUIDv5 of "<team>:<distinct id>" (as PostHog does): two processes that see a
// new distinct id at once pick the same id instead of creating two persons.
import { createHash } from 'node:crypto';

// A fixed namespace of our own (RFC 9562 v5 needs one); changing it would re-key every person.
const NAMESPACE = Buffer.from('5f0c6d1e9a3b4c2d8e7f60718293a4b5', 'hex');

// A distinct id whose person was deleted gets a new person of a new id: `reborn` is the version of
// the id's tombstone, which every process reads alike, so they still agree.
export function personUuid(teamId: number, distinctId: string, reborn?: number): string {
  const hasher = createHash('sha1').update(NAMESPACE).update(`${teamId}:${distinctId}`);
  if (reborn !== undefined) hasher.update(`\u0000reborn:${reborn}`);
  const hash = hasher.digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
