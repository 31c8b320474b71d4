// Whom a kind counts: the merged person, or the event's group of one type ($group_N). An event
// without a group of that type ('' in its column) is no group's, and is left out.
import { binary, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { EventSource } from './event-source.js';

/** null: persons; a number: the groups of that type index. */
export type ActorGroup = number | null;

export function actorOf(group: ActorGroup, source: EventSource): Expr {
  return group === null ? source.personId() : source.groupKey(group);
}

export function actorPresent(group: ActorGroup, source: EventSource): Expr | undefined {
  return group === null ? undefined : binary('!=', source.groupKey(group), constant(''));
}
