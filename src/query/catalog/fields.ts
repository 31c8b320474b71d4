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

/**
 * A value computed from a person's or group's properties inside its join, so the JSON is read once
 * per person or group rather than once per event. `key` says what `of` computes (equal keys, equal
 * values); the column it becomes is named by the reader (`ExtractNamer`), never after the key,
 * so property names stay out of the SQL text.
 */
export interface PropertyExtract {
  readonly key: string;
  readonly of: (properties: Expr) => Expr;
}

/** An extract with the column name it has in its join's subquery. */
export interface NamedExtract {
  readonly name: string;
  readonly of: (properties: Expr) => Expr;
}

/** Names extracts: the same join alias and key always give the same name. */
export type ExtractNamer = (joinAlias: string, key: string) => string;

export type FieldRef =
  | { readonly of: 'event'; readonly property: string }
  | { readonly of: 'person'; readonly property: string }
  | { readonly of: 'person'; readonly column: 'id' | VersionedColumn }
  | { readonly of: 'person'; readonly extract: PropertyExtract }
  | { readonly of: 'group'; readonly index: number; readonly property: string }
  | { readonly of: 'group'; readonly index: number; readonly column: 'key' | 'created_at' | 'properties' }
  | { readonly of: 'group'; readonly index: number; readonly extract: PropertyExtract };

/** A join a field needs: the merge overrides, or a column (or a property extract) of the latest persons or groups. */
export type JoinNeed =
  | { readonly join: 'overrides' }
  | { readonly join: 'person'; readonly column: VersionedColumn }
  | { readonly join: 'person'; readonly extract: NamedExtract }
  | { readonly join: 'group'; readonly index: number; readonly column: VersionedColumn }
  | { readonly join: 'group'; readonly index: number; readonly extract: NamedExtract };

/** A property read PostHog's insight way (jsonProperty), inside the join. */
const jsonExtract = (key: string): PropertyExtract => ({ key: `json\u0000${key}`, of: (properties) => jsonProperty(properties, key) });

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
  call('if', call('notEmpty', field('override_distinct_id', names.overrides)), field('override_person_id', names.overrides), field('person_id', names.events));

export function resolveField(ref: FieldRef, names: SourceNames, nameOf: ExtractNamer): ResolvedField {
  switch (ref.of) {
    case 'event':
      return { expr: jsonProperty(field('properties', names.events), ref.property), needs: [] };
    case 'person': {
      if ('column' in ref && ref.column === 'id') return { expr: mergedPersonId(names), needs: [{ join: 'overrides' }] };
      if ('column' in ref) {
        const column = ref.column as VersionedColumn;
        return { expr: field(`person_${column}`, names.person), needs: [{ join: 'overrides' }, { join: 'person', column }] };
      }
      const { key, of } = 'extract' in ref ? ref.extract : jsonExtract(ref.property);
      const extract = { name: nameOf(names.person, key), of };
      return { expr: field(extract.name, names.person), needs: [{ join: 'overrides' }, { join: 'person', extract }] };
    }
    case 'group': {
      if ('column' in ref && ref.column === 'key') return { expr: field(`$group_${ref.index}`, names.events), needs: [] };
      if ('column' in ref) {
        const column = ref.column as VersionedColumn;
        return { expr: field(`group_${column}`, names.group(ref.index)), needs: [{ join: 'group', index: ref.index, column }] };
      }
      const { key, of } = 'extract' in ref ? ref.extract : jsonExtract(ref.property);
      const extract = { name: nameOf(names.group(ref.index), key), of };
      return { expr: field(extract.name, names.group(ref.index)), needs: [{ join: 'group', index: ref.index, extract }] };
    }
  }
}

/** The LEFT JOINs that serve these needs, each table once, with only the columns read. */
export function joinsFor(needs: readonly JoinNeed[], names: SourceNames = DEFAULT_NAMES): Join[] {
  const person: LatestReads = { columns: [], extracts: new Map() };
  const groups = new Map<number, LatestReads>();
  for (const need of needs) {
    if (need.join === 'overrides') continue;
    let reads = person;
    if (need.join === 'group') {
      reads = groups.get(need.index) ?? { columns: [], extracts: new Map() };
      groups.set(need.index, reads);
    }
    if ('column' in need) reads.columns.push(need.column);
    else reads.extracts.set(need.extract.name, need.extract);
  }
  const joins: Join[] = [];
  if (needs.some((n) => n.join === 'overrides')) {
    joins.push(leftJoin(subquery(latestOverrides(), names.overrides), eq(field('distinct_id', names.events), field('override_distinct_id', names.overrides))));
  }
  if (person.columns.length > 0 || person.extracts.size > 0) {
    joins.push(leftJoin(subquery(latestPersons(person.columns, [...person.extracts.values()]), names.person), eq(field('person_key', names.person), mergedPersonId(names))));
  }
  for (const [index, reads] of [...groups].sort(([a], [b]) => a - b)) {
    const name = names.group(index);
    joins.push(leftJoin(subquery(latestGroups(index, reads.columns, [...reads.extracts.values()]), name), and(eq(field('group_key', name), field(`$group_${index}`, names.events)))));
  }
  return joins;
}

interface LatestReads {
  readonly columns: VersionedColumn[];
  readonly extracts: Map<string, NamedExtract>;
}
