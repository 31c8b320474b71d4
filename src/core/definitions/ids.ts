// Stable ids for definitions Hoglet computes instead of storing: a name-based UUID (RFC 4122
// version 5: SHA-1 of a namespace and a name), so the same project and name always give the same
// id, in every process, without a table.
import { createHash } from 'node:crypto';

/** Hoglet's own namespace (a random UUID drawn once); it keeps these ids apart from anyone else's. */
const NAMESPACE = Buffer.from('f16d9d6424db4e86bea949004bde351e', 'hex');

function nameBasedUuid(name: string): string {
  const bytes = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The project id is digits and the kind a fixed word, so only the last part is free text and the
// NUL separators cannot make two different triples read alike.
export const eventDefinitionId = (projectId: number, eventName: string): string =>
  nameBasedUuid(`${projectId}\0event_definition\0${eventName}`);

/** `type` is event, person, or group:<index> (a property of each group type is a definition of its own). */
export const propertyDefinitionId = (projectId: number, type: string, propertyName: string): string =>
  nameBasedUuid(`${projectId}\0property_definition:${type}\0${propertyName}`);
