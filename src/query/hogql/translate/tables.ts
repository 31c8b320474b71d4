// The tables a HogQL query may name, as PostHog's HogQL database exposes them, and how each field
// (lazy joins included: an event's person, its pdi, its groups) reads in Hoglet's store. Each table
// in a query's scope is one of these; it resolves field chains and lists the joins they needed.
import { alias, and, call, constant, eq, field, leftJoin, not, or, select, subquery, table } from '../../ast/build.js';
import type { Expr, FromItem, Join, Select, TableSample } from '../../ast/nodes.js';
import { namesFor, type PropertyExtract } from '../../catalog/fields.js';
import { latestPersons } from '../../catalog/latest.js';
import { EventSource } from '../../filters/event-source.js';
import { HogQLQueryError } from '../errors.js';
import { CarriedEventSource, CarriedJoins } from './carried-joins.js';
import { withPropertyReads, type PropertyReads } from './property-equality.js';
import { EventSession, SessionsTable } from './sessions.js';
import { CohortPeopleTable, type CohortPeopleRows } from './cohort-people.js';
import { typed, typeOf, type HogQLType } from './types.js';
import type { PropertyType } from '../../catalog/property-type.js';
import { asPropertyType, type PropertyOwner } from '../property-types.js';

export type Chain = readonly (string | number)[];

export interface TableContext {
  readonly timezone: string;
  /** The table is joined to an earlier one: an events table then carries its lazy joins inside (carried-joins.ts). */
  readonly joined?: boolean;
  /** A property's type from its definition (property-types.ts); undefined reads it as text. */
  readonly propertyType?: (owner: PropertyOwner, name: string) => PropertyType | undefined;
  /** The events table's SAMPLE (sample.ts); the printer keeps the sampled rows inside its guard. */
  readonly sample?: TableSample;
  /** cohort_people's rows (cohort-people.ts); absent where no cohorts were resolved for it. */
  readonly cohortPeople?: CohortPeopleRows;
}

/** A table (or subquery) in one SELECT's scope. */
export interface ScopedTable {
  readonly alias: string;
  readonly from: FromItem;
  /** Columns `select *` gives, in PostHog's order. */
  asterisk(): string[];
  /** The expression of a field chain whose first element is one of this table's fields; undefined when it has none. */
  resolve(chain: Chain): Expr | undefined;
  /** The joins the resolved fields needed, added after the query's own joins. */
  joins(): Join[];
  /** The events this table reads, when it is the events table (for `{filters}`). */
  readonly events?: EventSource;
  /** The persons' properties (JSON), when it is the persons table (person filters over it). */
  readonly personProperties?: Expr | undefined;
  /** The persons' ids, when it is the persons table (cohort filters over it). */
  readonly personIdField?: Expr | undefined;
  /** A column named outside `resolve` (a USING join) is read. */
  markRead?(column: string): void;
  /** The FROM item once the query is read: a subquery can then leave out what nothing read. */
  finalFrom?(): FromItem;
}

export const HOGQL_TABLES = ['events', 'persons', 'person_distinct_ids', 'groups', 'sessions', 'cohort_people', 'cohort_membership', 'posthog.cohort_membership'] as const;
export type HogQLTableName = (typeof HOGQL_TABLES)[number];

export function isHogQLTable(name: string): name is HogQLTableName {
  return (HOGQL_TABLES as readonly string[]).includes(name);
}

/** `events`: an existing EventSource to read through (HogQL inside an insight reads the insight's own). */
export function scopedTable(name: HogQLTableName, tableAlias: string, context: TableContext, events?: EventSource): ScopedTable {
  switch (name) {
    case 'events':
      return new EventsTable(tableAlias, context, events);
    case 'persons':
      return new LatestRowsTable(tableAlias, context, latestPersonRows, PERSON_FIELDS, ['id', 'created_at', 'properties', 'is_identified'], true);
    case 'person_distinct_ids':
      return new DistinctIdsTable(tableAlias, context);
    case 'groups':
      return new LatestRowsTable(tableAlias, context, latestGroupRows, GROUP_FIELDS, ['index', 'key', 'created_at', 'properties']);
    case 'sessions':
      return new SessionsTable(tableAlias, context);
    case 'cohort_people':
    case 'cohort_membership':
    case 'posthog.cohort_membership':
      return new CohortPeopleTable(tableAlias, context);
  }
}

/**
 * What the engine escapes when it writes a string as JSON (JSONExtractRaw's output): U+2028 and
 * U+2029 (each found with a plain substring search), and `"`, `\` and the control bytes 0x00-0x1F
 * (one character class, run by the engine's multi-pattern matcher).
 */
const LINE_SEPARATORS = ['\u2028', '\u2029'];
const ESCAPED_BYTES = '["\\\\\\x00-\\x1f]';

const extractKeys = (path: Chain) => path.map((key) => (typeof key === 'number' ? constant(key, 'Int64') : constant(key)));

const absent = (haystack: Expr, needle: string) => eq(call('position', haystack, constant(needle)), constant(0, 'UInt8'));

/**
 * A JSON property as PostHog's HogQL reads it: the raw JSON text of the value with `''` and `null`
 * as NULL and a leading and a trailing quote removed (numbers come back as their text, "" as "",
 * escapes inside a string stay escaped). PostHog prints replaceRegexpAll(raw, '^"|"$', ''). The
 * same text comes faster two ways: a non-empty string with nothing the engine would escape is
 * its decoded value (JSONExtractString, the cheap read); anything else is cut from the raw text.
 * "Nothing to escape" is known cheaply when the whole JSON holds no backslash: the value's bytes
 * then stand as written, so no quote, backslash or control byte (the parse would have failed) can
 * be in it, and only the line separators, which JSON may hold unescaped, are left to look for.
 * The raw text the engine writes starts with a quote exactly when it is a string, and a string
 * also ends with one, so the cut is substring(raw, 2, -1) (a negative length counts from the end).
 * The expression is kept small: the engine's analyzer walks it once per pass, per place it is
 * named (the select list, GROUP BY, ORDER BY), and on a 50 ms query joined to persons twice as
 * many nodes cost ~3 ms of planning (issue 28).
 */
export function hogqlProperty(json: Expr, path: Chain): Expr {
  const keys = extractKeys(path);
  const text = call('JSONExtractString', json, ...keys);
  const nothingEscaped = or(absent(json, '\\'), not(call('multiMatchAny', text, constant([ESCAPED_BYTES]))));
  const plain = and(call('notEmpty', text), ...LINE_SEPARATORS.map((separator) => absent(text, separator)), nothingEscaped);
  const raw = call('JSONExtractRaw', json, ...keys);
  const unquoted = call('substring', raw, constant(2, 'UInt8'), constant(-1, 'Int8'));
  const cut = call('if', call('startsWith', raw, constant('"')), unquoted, call('nullIf', call('nullIf', raw, constant('')), constant('null')));
  return withPropertyReads(typed(call('if', plain, text, cut), 'string', true), { decoded: () => text, raw: () => raw });
}

/** A property path read inside a person or group join (once per person, not per event): exact, decoded or raw. */
const joinExtracts = (path: Chain): Record<'exact' | keyof PropertyReads, PropertyExtract> => ({
  exact: { key: `hogql\u0000${JSON.stringify(path)}`, of: (properties) => hogqlProperty(properties, path) },
  decoded: { key: `hogql-decoded\u0000${JSON.stringify(path)}`, of: (properties) => call('JSONExtractString', properties, ...extractKeys(path)) },
  raw: { key: `hogql-raw\u0000${JSON.stringify(path)}`, of: (properties) => call('JSONExtractRaw', properties, ...extractKeys(path)) },
});

/** A property of the event's person or group, read in its join, marked with its cheaper reads. */
function joinedProperty(read: (extract: PropertyExtract) => Expr, path: Chain): Expr {
  const extracts = joinExtracts(path);
  return withPropertyReads(typed(read(extracts.exact), 'string', true), { decoded: () => read(extracts.decoded), raw: () => read(extracts.raw) });
}

/** A stored DateTime column shown in the project's time zone, as PostHog prints every DateTime field. */
const inZone = (column: Expr, timezone: string): Expr => typed(call('toTimeZone', column, constant(timezone)), 'datetime', false);

const notFound = (chain: Chain) => new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);

/** A top-level property read as its definition's type; any other read stays exactly as it is. */
function asDefined(context: TableContext, owner: PropertyOwner, path: Chain, read: Expr): Expr {
  const [name] = path;
  if (path.length !== 1 || typeof name !== 'string' || !context.propertyType) return read;
  const type = context.propertyType(owner, name);
  return type ? asPropertyType(read, type, context.timezone) : read;
}

/** `properties` (JSON), optionally followed by a property path. */
function jsonField(json: Expr, rest: Chain): Expr {
  return rest.length === 0 ? typed(json, 'json', false) : hogqlProperty(json, rest);
}

// `team_id` reads the stored column through the table's guarded SELECT: always the project's own.
const EVENT_COLUMNS: Record<string, HogQLType> = {
  team_id: 'integer', uuid: 'uuid', event: 'string', properties: 'json', timestamp: 'datetime', distinct_id: 'string',
  elements_chain: 'string', created_at: 'datetime', $session_id: 'string',
  $group_0: 'string', $group_1: 'string', $group_2: 'string', $group_3: 'string', $group_4: 'string',
};

const EVENT_ASTERISK = [
  'uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at', '$session_id', '$window_id',
  '$group_0', '$group_1', '$group_2', '$group_3', '$group_4',
];

class EventsTable implements ScopedTable {
  readonly events: EventSource;
  private readonly session: EventSession;
  /** Over a runner's events (HogQL inside an insight) the session join is theirs to write, with the others. */
  private readonly sessionAttached: boolean;
  readonly from: FromItem;
  /** Its lazy joins, when they go inside its FROM item (a joined table; `events` is never one). */
  private readonly carried: CarriedJoins | undefined;

  constructor(readonly alias: string, private readonly context: TableContext, events?: EventSource) {
    this.carried = context.joined && !events ? new CarriedJoins(alias) : undefined;
    this.events = events ?? (this.carried ? new CarriedEventSource(namesFor(alias), this.carried) : new EventSource(namesFor(alias)));
    this.from = context.sample ? Object.freeze({ ...table('events', alias), sample: context.sample }) : table('events', alias);
    this.sessionAttached = events !== undefined;
    this.session = events ? events.attach('session', () => new EventSession(alias, context)) : new EventSession(alias, context);
  }

  asterisk(): string[] {
    return EVENT_ASTERISK;
  }

  resolve(chain: Chain): Expr | undefined {
    const [head, ...rest] = chain;
    if (typeof head !== 'string') return undefined;
    const column = EVENT_COLUMNS[head];
    if (column === 'json') return asDefined(this.context, 'event', rest, jsonField(field(head, this.alias), rest));
    if (column !== undefined) {
      if (rest.length > 0) throw notFound(chain);
      const value = field(head, this.alias);
      return column === 'datetime' ? inZone(value, this.context.timezone) : typed(value, column, false);
    }
    switch (head) {
      case '$window_id':
        // A String column in PostHog's events (its string value, '' when there is none), never NULL.
        return this.leaf(chain, typed(call('JSONExtractString', field('properties', this.alias), constant('$window_id')), 'string', false));
      case 'person_id':
        return this.leaf(chain, typed(this.events.personId(), 'uuid', false));
      case 'person':
      case 'poe':
        return this.person(chain, rest);
      case 'pdi':
        return this.pdi(chain, rest);
      case 'session':
        return this.sessionField(rest);
      default: {
        const group = /^group_([0-4])$/.exec(head);
        return group ? this.group(chain, Number(group[1]), rest) : undefined;
      }
    }
  }

  private sessionField(rest: Chain): Expr {
    const expr = this.session.resolve(rest);
    if (!this.carried) return expr;
    const { type, nullable } = typeOf(expr);
    return typed(this.carried.outside(expr), type, nullable);
  }

  private leaf(chain: Chain, expr: Expr): Expr {
    if (chain.length > 1) throw notFound(chain);
    return expr;
  }

  private person(chain: Chain, rest: Chain): Expr {
    const [column, ...path] = rest;
    switch (column) {
      case 'id':
        return this.leafOf(chain, path, typed(this.events.personId(), 'uuid', false));
      case 'created_at':
        return this.leafOf(chain, path, inZone(this.events.read({ of: 'person', column: 'created_at' }), this.context.timezone));
      case 'is_identified':
        return this.leafOf(chain, path, typed(this.events.read({ of: 'person', column: 'is_identified' }), 'boolean', true));
      case 'properties': {
        if (path.length === 0) return typed(this.events.read({ of: 'person', column: 'properties' }), 'json', true);
        // Read inside the person join: once per person, not once per event.
        return asDefined(this.context, 'person', path, joinedProperty((extract) => this.events.read({ of: 'person', extract }), path));
      }
      case undefined:
        throw new HogQLQueryError(`Can't select a table when a column is expected: ${String(chain.at(-1))}`);
      default:
        throw new HogQLQueryError(`Field not found: ${String(column)}`);
    }
  }

  private pdi(chain: Chain, rest: Chain): Expr {
    const [column, ...path] = rest;
    if (column === 'distinct_id') return this.leafOf(chain, path, typed(field('distinct_id', this.alias), 'string', false));
    // PostHog's person_distinct_ids has team_id too: the event's own, through its guarded SELECT.
    if (column === 'team_id') return this.leafOf(chain, path, typed(field('team_id', this.alias), 'integer', false));
    if (column === 'person_id') return this.leafOf(chain, path, typed(this.events.personId(), 'uuid', false));
    if (column === 'person') return this.person(chain, path);
    throw notFound(chain);
  }

  private group(chain: Chain, index: number, rest: Chain): Expr {
    const [column, ...path] = rest;
    switch (column) {
      case 'key':
        return this.leafOf(chain, path, typed(field(`$group_${index}`, this.alias), 'string', false));
      case 'index':
        return this.leafOf(chain, path, typed(constant(index), 'integer', false));
      case 'created_at':
        return this.leafOf(chain, path, inZone(this.events.read({ of: 'group', index, column: 'created_at' }), this.context.timezone));
      case 'properties': {
        if (path.length === 0) return typed(this.events.read({ of: 'group', index, column: 'properties' }), 'json', true);
        return asDefined(this.context, { group: index }, path, joinedProperty((extract) => this.events.read({ of: 'group', index, extract }), path));
      }
      default:
        throw notFound(chain);
    }
  }

  private leafOf(chain: Chain, path: Chain, expr: Expr): Expr {
    if (path.length > 0) throw notFound(chain);
    return expr;
  }

  joins(): Join[] {
    return this.carried ? [] : this.ownJoins();
  }

  finalFrom(): FromItem {
    return this.carried ? this.carried.from(this.ownJoins(), this.from) : this.from;
  }

  private ownJoins(): Join[] {
    return this.sessionAttached ? this.events.joins() : [...this.events.joins(), ...this.session.joins()];
  }
}

interface RowField {
  readonly type: HogQLType;
}

const PERSON_FIELDS: Record<string, RowField> = {
  team_id: { type: 'integer' }, id: { type: 'uuid' }, created_at: { type: 'datetime' }, properties: { type: 'json' }, is_identified: { type: 'boolean' },
};

const GROUP_FIELDS: Record<string, RowField> = {
  team_id: { type: 'integer' }, index: { type: 'integer' }, key: { type: 'string' }, created_at: { type: 'datetime' }, properties: { type: 'json' },
};

const latestOf = (column: string) => alias(call('argMax', field(column, 'raw'), field('version', 'raw')), column);
/** The project of a row's versions (all one, the guarded table's): read only when the query names it. */
const teamOf = (columns: ReadonlySet<string>) => (columns.has('team_id') ? [alias(call('any', field('team_id', 'raw')), 'team_id')] : []);

/** The latest version of each live person, under HogQL's field names: the id and the `columns` read. */
function latestPersonRows(columns: ReadonlySet<string>): Select {
  return select({
    select: [alias(field('id', 'raw'), 'id'), ...teamOf(columns), ...['created_at', 'properties', 'is_identified'].filter((c) => columns.has(c)).map(latestOf)],
    from: table('persons', 'raw'),
    groupBy: [field('id', 'raw')],
    having: eq(call('argMax', field('is_deleted', 'raw'), field('version', 'raw')), constant(false)),
  });
}

/** The latest version of each group, under HogQL's field names: its index and key and the `columns` read. */
function latestGroupRows(columns: ReadonlySet<string>): Select {
  return select({
    select: [alias(field('group_type_index', 'raw'), 'index'), alias(field('group_key', 'raw'), 'key'), ...teamOf(columns), ...['created_at', 'properties'].filter((c) => columns.has(c)).map(latestOf)],
    from: table('groups', 'raw'),
    groupBy: [field('group_type_index', 'raw'), field('group_key', 'raw')],
  });
}

/** Each distinct id's current person. */
function latestDistinctIdRows(): Select {
  return select({
    select: [alias(field('distinct_id', 'raw'), 'distinct_id'), alias(call('argMax', field('person_id', 'raw'), field('version', 'raw')), 'person_id'), alias(call('any', field('team_id', 'raw')), 'team_id')],
    from: table('person_distinct_ids', 'raw'),
    groupBy: [field('distinct_id', 'raw')],
    having: eq(call('argMax', field('is_deleted', 'raw'), field('version', 'raw')), constant(false)),
  });
}

/**
 * A table read as a subquery of latest rows: persons and groups. The subquery computes only the
 * columns the query read (the engine does not drop unread aggregates of a joined subquery).
 */
class LatestRowsTable implements ScopedTable {
  readonly from: FromItem;
  private readonly read = new Set<string>();

  constructor(
    readonly alias: string,
    private readonly context: TableContext,
    private readonly rows: (columns: ReadonlySet<string>) => Select,
    private readonly fields: Record<string, RowField>,
    private readonly star: string[],
    private readonly persons = false,
  ) {
    this.from = subquery(rows(new Set(star)), alias);
  }

  get personProperties(): Expr | undefined {
    if (!this.persons) return undefined;
    this.read.add('properties');
    return field('properties', this.alias);
  }

  get personIdField(): Expr | undefined {
    if (!this.persons) return undefined;
    this.read.add('id');
    return field('id', this.alias);
  }

  markRead(column: string): void {
    this.read.add(column);
  }

  finalFrom(): FromItem {
    return subquery(this.rows(this.read), this.alias);
  }

  asterisk(): string[] {
    return this.star;
  }

  resolve(chain: Chain): Expr | undefined {
    const [head, ...rest] = chain;
    if (typeof head !== 'string') return undefined;
    const known = Object.hasOwn(this.fields, head) ? this.fields[head] : undefined;
    if (!known) return undefined;
    this.read.add(head);
    const value = field(head, this.alias);
    if (known.type === 'json') return this.persons ? asDefined(this.context, 'person', rest, jsonField(value, rest)) : jsonField(value, rest);
    if (rest.length > 0) throw notFound(chain);
    return known.type === 'datetime' ? inZone(value, this.context.timezone) : typed(value, known.type, false);
  }

  joins(): Join[] {
    return [];
  }
}

/** person_distinct_ids: each distinct id's current person, with the person as a lazy join. */
export class DistinctIdsTable implements ScopedTable {
  readonly from: FromItem;
  private personNeeded = false;

  constructor(readonly alias: string, private readonly context: TableContext) {
    this.from = subquery(latestDistinctIdRows(), alias);
  }

  private get personAlias(): string {
    return `${this.alias}__person`;
  }

  asterisk(): string[] {
    return ['distinct_id', 'person_id'];
  }

  resolve(chain: Chain): Expr | undefined {
    const [head, column, ...path] = chain;
    if (head === 'distinct_id' || head === 'person_id' || head === 'team_id') {
      if (chain.length > 1) throw notFound(chain);
      return typed(field(head, this.alias), head === 'person_id' ? 'uuid' : head === 'team_id' ? 'integer' : 'string', false);
    }
    if (head !== 'person') return undefined;
    if (column === 'id') return typed(field('person_id', this.alias), 'uuid', false);
    this.personNeeded = true;
    const person = (name: string) => field(`person_${name}`, this.personAlias);
    if (column === 'created_at' && path.length === 0) return inZone(person('created_at'), this.context.timezone);
    if (column === 'is_identified' && path.length === 0) return typed(person('is_identified'), 'boolean', true);
    if (column === 'properties') return path.length === 0 ? typed(person('properties'), 'json', true) : asDefined(this.context, 'person', path, hogqlProperty(person('properties'), path));
    throw notFound(chain);
  }

  joins(): Join[] {
    if (!this.personNeeded) return [];
    const persons = subquery(latestPersons(['properties', 'created_at', 'is_identified']), this.personAlias);
    return [leftJoin(persons, and(eq(field('person_key', this.personAlias), field('person_id', this.alias))))];
  }
}
