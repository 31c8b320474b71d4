// What a query can read about an event, its person and its groups, and what reading it takes: a
// pure resolver from a field reference to its expression and the joins it needs. EventSource
// collects the needs of everything a runner reads and joins each table once.
import { and, call, constant, eq, field, keyword, leftJoin, subquery } from '../ast/build.js';
import type { Expr, Join } from '../ast/nodes.js';
import { latestGroups, latestOverrides, latestPersons, type VersionedColumn } from './latest.js';

/** The events table's alias in every query that reads events through EventSource. */
export const EVENTS = 'e';

/**
 * The aliases one events table and its joins go by. Runners use the defaults; HogQL names each
 * `events AS x` of a user's query apart (`x__person` ...), so no user alias can collide.
 */
export interface SourceNames {
  readonly events: string;
  readonly overrides: string;
  readonly person: string;
  group(index: number): string;
}

export const DEFAULT_NAMES: SourceNames = Object.freeze({
  events: EVENTS,
  overrides: 'overrides',
  person: 'person',
  group: (index: number) => `group_${index}`,
});

/** The names of the joins of an events table under a user's alias (HogQL). */
export function namesFor(eventsAlias: string): SourceNames {
  return Object.freeze({
    events: eventsAlias,
    overrides: `${eventsAlias}__overrides`,
    person: `${eventsAlias}__person`,
    group: (index: number) => `${eventsAlias}__group_${index}`,
  });
}

export type FieldRef =
  | { readonly of: 'event'; readonly property: string }
  | { readonly of: 'person'; readonly property: string }
  | { readonly of: 'person'; readonly column: 'id' | VersionedColumn }
  | { readonly of: 'group'; readonly index: number; readonly property: string }
  | { readonly of: 'group'; readonly index: number; readonly column: 'key' | 'created_at' | 'properties' };

/** A join a field needs: the merge overrides, or a column of the latest persons or groups. */
export type JoinNeed =
  | { readonly join: 'overrides' }
  | { readonly join: 'person'; readonly column: VersionedColumn }
  | { readonly join: 'group'; readonly index: number; readonly column: VersionedColumn };

export interface ResolvedField {
  readonly expr: Expr;
  readonly needs: readonly JoinNeed[];
}

/** Reads one JSON property as a string; missing keys, JSON null and "" all become NULL (PostHog's rule). */
export function jsonProperty(json: Expr, key: string): Expr {
  return call('nullIf', call('JSONExtract', json, constant(key), keyword('Nullable(String)')), constant(''));
}

/** The person of the event after merges: the override of its distinct id, else its own person_id. */
const mergedPersonId = (names: SourceNames): Expr =>
  call('if', call('notEmpty', field('distinct_id', names.overrides)), field('override_person_id', names.overrides), field('person_id', names.events));

export function resolveField(ref: FieldRef, names: SourceNames = DEFAULT_NAMES): ResolvedField {
  switch (ref.of) {
    case 'event':
      return { expr: jsonProperty(field('properties', names.events), ref.property), needs: [] };
    case 'person': {
      if ('column' in ref && ref.column === 'id') return { expr: mergedPersonId(names), needs: [{ join: 'overrides' }] };
      const column: VersionedColumn = 'column' in ref ? (ref.column as VersionedColumn) : 'properties';
      const value = field(`person_${column}`, names.person);
      return {
        expr: 'property' in ref ? jsonProperty(value, ref.property) : value,
        needs: [{ join: 'overrides' }, { join: 'person', column }],
      };
    }
    case 'group': {
      if ('column' in ref && ref.column === 'key') return { expr: field(`$group_${ref.index}`, names.events), needs: [] };
      const column: VersionedColumn = 'column' in ref ? (ref.column as VersionedColumn) : 'properties';
      const value = field(`group_${column}`, names.group(ref.index));
      return {
        expr: 'property' in ref ? jsonProperty(value, ref.property) : value,
        needs: [{ join: 'group', index: ref.index, column }],
      };
    }
  }
}

/** The LEFT JOINs that serve these needs, each table once, with only the columns read. */
export function joinsFor(needs: readonly JoinNeed[], names: SourceNames = DEFAULT_NAMES): Join[] {
  const personColumns = needs.flatMap((n) => (n.join === 'person' ? [n.column] : []));
  const groupColumns = new Map<number, VersionedColumn[]>();
  for (const need of needs) if (need.join === 'group') groupColumns.set(need.index, [...(groupColumns.get(need.index) ?? []), need.column]);
  const joins: Join[] = [];
  if (needs.some((n) => n.join === 'overrides')) {
    joins.push(leftJoin(subquery(latestOverrides(), names.overrides), eq(field('distinct_id', names.events), field('distinct_id', names.overrides))));
  }
  if (personColumns.length > 0) {
    joins.push(leftJoin(subquery(latestPersons(personColumns), names.person), eq(field('person_key', names.person), mergedPersonId(names))));
  }
  for (const [index, columns] of [...groupColumns].sort(([a], [b]) => a - b)) {
    const name = names.group(index);
    joins.push(leftJoin(subquery(latestGroups(index, columns), name), and(eq(field('group_key', name), field(`$group_${index}`, names.events)))));
  }
  return joins;
}
