// What a query can read about an event, its person and its groups, and what reading it takes: a
// pure resolver from a field reference to its expression and the joins it needs. EventSource
// collects the needs of everything a runner reads and joins each table once.
import { and, call, constant, eq, field, keyword, leftJoin, subquery } from '../ast/build.js';
import type { Expr, Join } from '../ast/nodes.js';
import { latestGroups, latestOverrides, latestPersons, type VersionedColumn } from './latest.js';

/** The events table's alias in every query that reads events through EventSource. */
export const EVENTS = 'e';

export type FieldRef =
  | { readonly of: 'event'; readonly property: string }
  | { readonly of: 'person'; readonly property: string }
  | { readonly of: 'person'; readonly column: 'id' | 'created_at' }
  | { readonly of: 'group'; readonly index: number; readonly property: string }
  | { readonly of: 'group'; readonly index: number; readonly column: 'key' | 'created_at' };

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
const mergedPersonId = (): Expr =>
  call('if', call('notEmpty', field('distinct_id', 'overrides')), field('override_person_id', 'overrides'), field('person_id', EVENTS));

const groupAlias = (index: number) => `group_${index}`;

export function resolveField(ref: FieldRef): ResolvedField {
  switch (ref.of) {
    case 'event':
      return { expr: jsonProperty(field('properties', EVENTS), ref.property), needs: [] };
    case 'person': {
      if ('column' in ref && ref.column === 'id') return { expr: mergedPersonId(), needs: [{ join: 'overrides' }] };
      const column: VersionedColumn = 'column' in ref ? 'created_at' : 'properties';
      const value = field(`person_${column}`, 'person');
      return {
        expr: 'property' in ref ? jsonProperty(value, ref.property) : value,
        needs: [{ join: 'overrides' }, { join: 'person', column }],
      };
    }
    case 'group': {
      if ('column' in ref && ref.column === 'key') return { expr: field(`$group_${ref.index}`, EVENTS), needs: [] };
      const column: VersionedColumn = 'column' in ref ? 'created_at' : 'properties';
      const value = field(`group_${column}`, groupAlias(ref.index));
      return {
        expr: 'property' in ref ? jsonProperty(value, ref.property) : value,
        needs: [{ join: 'group', index: ref.index, column }],
      };
    }
  }
}

/** The LEFT JOINs that serve these needs, each table once, with only the columns read. */
export function joinsFor(needs: readonly JoinNeed[]): Join[] {
  const personColumns = needs.flatMap((n) => (n.join === 'person' ? [n.column] : []));
  const groupColumns = new Map<number, VersionedColumn[]>();
  for (const need of needs) if (need.join === 'group') groupColumns.set(need.index, [...(groupColumns.get(need.index) ?? []), need.column]);
  const joins: Join[] = [];
  if (needs.some((n) => n.join === 'overrides')) {
    joins.push(leftJoin(subquery(latestOverrides(), 'overrides'), eq(field('distinct_id', EVENTS), field('distinct_id', 'overrides'))));
  }
  if (personColumns.length > 0) {
    joins.push(leftJoin(subquery(latestPersons(personColumns), 'person'), eq(field('person_key', 'person'), mergedPersonId())));
  }
  for (const [index, columns] of [...groupColumns].sort(([a], [b]) => a - b)) {
    const name = groupAlias(index);
    joins.push(leftJoin(subquery(latestGroups(index, columns), name), and(eq(field('group_key', name), field(`$group_${index}`, EVENTS)))));
  }
  return joins;
}
