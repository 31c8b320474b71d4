// Reads the definitions (types) of the properties a HogQL query names, from the project's own stored
// data by the definitions API's rule (events: the first million the engine reads), and keeps them
// five minutes: PostHog's definitions too follow ingestion with a delay, and a query that repeats
// (a dashboard, the benchmark) pays no scan.
import { alias, call, constant, field, or, select, subquery, table, tuple } from '../ast/build.js';
import type { Expr, FromItem, Select } from '../ast/nodes.js';
import { DATETIME_PATTERN, propertyTypeOf, type PropertyType } from '../catalog/property-type.js';
import { latestGroups, latestPersons } from '../catalog/latest.js';
import type { QueryExecutor, QueryRun } from '../execute.js';
import type { ValueKind } from '../../storage/events/definitions-repository.js';
import { ALWAYS_STRING_EVENT_PROPERTIES, KnownPropertyTypes, propertyRefKey, type PropertyOwner } from './property-types.js';

/**
 * How long a type read from the data is used before it is read again. A property's type rarely
 * changes (PostHog's is set once, by the first value seen), so reading it often buys little.
 */
export const PROPERTY_TYPE_TTL_MS = 5 * 60_000;
/** Events read to type event properties (PostHog types by the first value seen; a sample suffices). */
const EVENTS_READ_FOR_TYPES = 1_000_000;
/** Types kept per executor (all projects); past it the oldest are forgotten. */
const MAX_ENTRIES = 20_000;

interface Entry {
  readonly type: PropertyType | null;
  readonly at: number;
}

/** Per executor (one event store), by project, then by property. */
const CACHES = new WeakMap<QueryExecutor, Map<string, Entry>>();

const cacheOf = (executor: QueryExecutor): Map<string, Entry> => {
  let cache = CACHES.get(executor);
  if (!cache) CACHES.set(executor, (cache = new Map()));
  return cache;
};

const projectKey = (projectId: number, refKey: string) => `${projectId}\u0000${refKey}`;

/** Types people set (by propertyRefKey); they win over the data's, so they are never read. */
export type PropertyTypeOverrides = ReadonlyMap<string, PropertyType>;
const NO_OVERRIDES: PropertyTypeOverrides = new Map();

/** The types this project's properties are known to have now (set ones, then fresh entries, read as asked). */
export function knownPropertyTypes(executor: QueryExecutor, projectId: number, now = Date.now(), overrides: PropertyTypeOverrides = NO_OVERRIDES): KnownPropertyTypes {
  const cache = cacheOf(executor);
  return new KnownPropertyTypes({
    get: (refKey) => {
      const set = overrides.get(refKey);
      if (set !== undefined) return set;
      const entry = cache.get(projectKey(projectId, refKey));
      return entry && now - entry.at < PROPERTY_TYPE_TTL_MS ? entry.type : undefined;
    },
  });
}

/**
 * Reads the types of the properties `known` was asked for and did not have (one statement per
 * owner: events, persons, each group type), into the cache and into a new KnownPropertyTypes.
 * Every statement goes through the run, so it is the run's project's data only.
 */
export async function loadMissingTypes(run: QueryRun, known: KnownPropertyTypes, overrides: PropertyTypeOverrides = NO_OVERRIDES): Promise<KnownPropertyTypes> {
  const byOwner = new Map<string, { owner: PropertyOwner; names: string[] }>();
  for (const { owner, name } of known.missing.values()) {
    const ownerKey = typeof owner === 'string' ? owner : `group:${owner.group}`;
    const entry = byOwner.get(ownerKey) ?? { owner, names: [] };
    entry.names.push(name);
    byOwner.set(ownerKey, entry);
  }
  const cache = cacheOf(run.executor);
  const now = Date.now();
  for (const { owner, names } of byOwner.values()) {
    const types = await readTypes(run, owner, names);
    names.forEach((name, i) => {
      const key = projectKey(run.teamId, propertyRefKey(owner, name));
      cache.delete(key); // to the end of the order: the oldest go first
      cache.set(key, { type: types[i] ?? null, at: now });
    });
  }
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return knownPropertyTypes(run.executor, run.teamId, now, overrides);
}

/** The kind of one raw JSON value, as the definitions API names it (definitions-repository.ts). */
function valueKind(raw: Expr): Expr {
  const starts = (text: string) => call('startsWith', raw, constant(text));
  return call('multiIf',
    starts('"'), call('if', call('match', raw, constant(DATETIME_PATTERN)), constant('datetime'), constant('string')),
    call('in', raw, tuple(constant('true'), constant('false'))), constant('boolean'),
    call('equals', raw, constant('null')), constant('null'),
    or(starts('{'), starts('[')), constant('structure'),
    constant('number'));
}

/** Where an owner's properties are: the events, or the latest version of each person or group. */
function propertiesOf(owner: PropertyOwner): { from: FromItem; json: Expr } {
  if (owner === 'event') {
    // The first rows the engine reads, not all: the full scan cost as much as the query itself
    // (1.8 s beside a 0.66 s top-URLs query over 10M events) and grows with the project.
    const sample = select({ select: [field('properties')], from: table('events', 'e'), limit: EVENTS_READ_FOR_TYPES });
    return { from: subquery(sample, 'e'), json: field('properties', 'e') };
  }
  if (owner === 'person') return { from: subquery(latestPersons(['properties']), 'p'), json: field('person_properties', 'p') };
  return { from: subquery(latestGroups(owner.group, ['properties']), 'g'), json: field('group_properties', 'g') };
}

async function readTypes(run: QueryRun, owner: PropertyOwner, names: readonly string[]): Promise<(PropertyType | null)[]> {
  const { from, json } = propertiesOf(owner);
  const columns = names.map((name, i) => {
    const raw = call('JSONExtractRaw', json, constant(name));
    return alias(call('groupUniqArrayIf', valueKind(raw), call('notEmpty', raw)), `k${i}`);
  });
  const statement: Select = select({ select: columns, from });
  const [row] = await run.rows<Record<string, ValueKind[]>>(statement);
  return names.map((name, i) => {
    if (owner === 'event' && ALWAYS_STRING_EVENT_PROPERTIES.has(name)) return 'String';
    return propertyTypeOf(row?.[`k${i}`] ?? []);
  });
}

/**
 * Translates with the types known now; when the translation asked for a property whose type is
 * not known yet, reads those (one statement per owner) and translates once more. A repeated query
 * finds every type in the cache and translates once.
 */
export async function withPropertyTypes<T>(run: QueryRun, translate: (types: KnownPropertyTypes) => T, overrides: PropertyTypeOverrides = NO_OVERRIDES): Promise<T> {
  const known = knownPropertyTypes(run.executor, run.teamId, Date.now(), overrides);
  const first = translate(known);
  if (known.missing.size === 0) return first;
  return translate(await loadMissingTypes(run, known, overrides));
}
