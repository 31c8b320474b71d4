// The taxonomy reads: which event names and property keys a project's stored data holds. Hoglet
// keeps no definitions table; each answer is one GROUP BY over the project's rows (team_id is
// the first key of every table's order, so only that project's range is read).
import { QueryTimeoutError } from '../../errors.js';
import type { EventStore, QueryParams } from './event-store.js';
import { TABLES } from './tables.js';

export interface PageWindow {
  limit: number;
  offset: number;
}

/** One page of rows and how many rows there are in all (0 when the page is empty). */
export interface CountedRows<Row> {
  total: number;
  rows: Row[];
}

export interface EventNameRow {
  name: string;
  /** ClickHouse DateTime64 text in UTC, e.g. "2024-05-01 10:00:00.000000". */
  first_seen: string;
  last_seen: string;
  /** Events of the name in the last 30 days (PostHog's volume_30_day). */
  volume_30_day: number;
}

/** Which event names a listing keeps; every part is bound as a parameter. */
export interface EventNameFilter {
  /** Case-insensitive substring of the name. */
  search: string | null;
  /** true: only PostHog's own events (names starting with $); false: none of them; null: either. */
  posthogEvents: boolean | null;
  excludeNames: readonly string[];
  /** Only these names; null: any. */
  onlyNames: readonly string[] | null;
  /** Deleted definitions: left out unless an event of the name arrived after the deletion (ISO time). */
  deleted: readonly { name: string; at: string }[];
  /** Sort keys after which the name breaks ties; empty: by name. */
  order: readonly { key: EventNameOrderKey; descending: boolean }[];
}

export type EventNameOrderKey = 'name' | 'first_seen' | 'last_seen' | 'volume_30_day';

export const ALL_EVENT_NAMES: EventNameFilter = { search: null, posthogEvents: null, excludeNames: [], onlyNames: null, deleted: [], order: [] };

/**
 * What a property's values were, one word per JSON value seen: a string that `datetimePattern`
 * matches is 'datetime'; objects and arrays are 'structure'.
 */
export type ValueKind = 'number' | 'boolean' | 'string' | 'datetime' | 'null' | 'structure';

export interface PropertyKeyRow {
  name: string;
  /** Every kind of value the key had (each once). */
  kinds: ValueKind[];
  /** Whether the key was seen on one of `seenOn`'s events; null when no events were named. */
  seen: boolean | null;
}

/** Which keys a listing keeps; every part is bound as a parameter. */
export interface PropertyKeyFilter {
  /** Case-insensitive substring of the key. */
  search: string | null;
  excludeNames: readonly string[];
  excludePrefixes: readonly string[];
  requirePrefix: string | null;
  /** Only these names; null: any. */
  onlyNames?: readonly string[] | null;
  /**
   * Keep only numerical properties (PostHog's is_numerical=true): the names a person typed
   * Numeric, and those nobody typed whose values were all numbers.
   */
  numerical?: { numericNames: readonly string[]; typedNames: readonly string[] } | null;
}

export type PropertySource =
  /** Keys of events' properties; `onlyEvents` keeps only those events' rows, `seenOn` fills `seen`. */
  | { kind: 'event'; onlyEvents: readonly string[] | null; seenOn: readonly string[] | null }
  /** Keys of each live person's latest properties. */
  | { kind: 'person' }
  /** Keys of each group's latest properties, of one group type. */
  | { kind: 'group'; groupTypeIndex: number };

/** The kind of the raw JSON text of one value (`kv.2`). Literals only; the pattern is bound. */
const VALUE_KIND_SQL = `multiIf(
    startsWith(kv.2, '"'), if(match(kv.2, {datetime_pattern:String}), 'datetime', 'string'),
    kv.2 IN ('true', 'false'), 'boolean',
    kv.2 = 'null', 'null',
    startsWith(kv.2, '{') OR startsWith(kv.2, '['), 'structure',
    'number')`;

/** PostHog's text of a property value: the raw JSON, one leading and one trailing quote removed. */
const PROPERTY_TEXT_SQL = `replaceRegexpAll(JSONExtractRaw(properties, {key:String}), '^"|"$', '')`;

interface TotalRow {
  total: string | number;
}

export class DefinitionsRepository {
  constructor(
    private readonly store: EventStore,
    private readonly timeoutSeconds: number,
  ) {}

  private get db(): string {
    return this.store.layout.database;
  }

  /**
   * Distinct event names with the first and last event time and the last 30 days' count, ordered
   * by `filter.order` then name (byte order); `page` null reads them all.
   */
  async eventNames(teamId: number, filter: EventNameFilter, page: PageWindow | null): Promise<CountedRows<EventNameRow>> {
    const params: QueryParams = { team: teamId };
    let where = 'team_id = {team:UInt64}';
    if (filter.search !== null) {
      where += ' AND positionCaseInsensitiveUTF8(event, {search:String}) > 0';
      params.search = filter.search;
    }
    if (filter.posthogEvents !== null) where += filter.posthogEvents ? " AND startsWith(event, '$')" : " AND NOT startsWith(event, '$')";
    if (filter.excludeNames.length > 0) {
      where += ' AND event NOT IN {exclude_names:Array(String)}';
      params.exclude_names = filter.excludeNames;
    }
    if (filter.onlyNames !== null) {
      where += ' AND event IN {only_names:Array(String)}';
      params.only_names = filter.onlyNames;
    }
    let having = '';
    if (filter.deleted.length > 0) {
      // Kept only when its latest event came after the deletion.
      having = `HAVING NOT (indexOf({deleted_names:Array(String)}, name) > 0
        AND max(timestamp) <= parseDateTime64BestEffort(arrayElement({deleted_at:Array(String)}, indexOf({deleted_names:Array(String)}, name)), 6, 'UTC'))`;
      params.deleted_names = filter.deleted.map((d) => d.name);
      params.deleted_at = filter.deleted.map((d) => d.at);
    }
    // Fixed SQL per key: nothing of the request reaches the text.
    const orderSql: Record<EventNameOrderKey, string> = { name: 'name', first_seen: 'first_seen', last_seen: 'last_seen', volume_30_day: 'volume_30_day' };
    const order = [...filter.order.map((o) => `${orderSql[o.key]} ${o.descending ? 'DESC' : 'ASC'}`), 'name'];
    const result = await this.counted<Omit<EventNameRow, 'volume_30_day'> & { volume_30_day: string | number }>(
      `SELECT event AS name, toString(min(timestamp)) AS first_seen, toString(max(timestamp)) AS last_seen,
              countIf(timestamp >= now() - INTERVAL 30 DAY) AS volume_30_day,
              count() OVER () AS total
       FROM ${this.db}.${TABLES.events}
       WHERE ${where}
       GROUP BY event
       ${having}
       ORDER BY ${order.join(', ')}`,
      params,
      page,
    );
    return { total: result.total, rows: result.rows.map((row) => ({ ...row, volume_30_day: Number(row.volume_30_day) })) };
  }

  /**
   * Distinct top-level property keys with the kinds of value each had, ordered by name (keys seen
   * on `seenOn`'s events first, when events are named).
   */
  async propertyKeys(
    teamId: number,
    source: PropertySource,
    filter: PropertyKeyFilter,
    datetimePattern: string,
    page: PageWindow,
  ): Promise<CountedRows<PropertyKeyRow>> {
    const params: QueryParams = { team: teamId, datetime_pattern: datetimePattern };
    let rows: string;
    let seen = 'NULL';
    if (source.kind === 'event') {
      rows = `SELECT event, properties FROM ${this.db}.${TABLES.events} WHERE team_id = {team:UInt64}`;
      if (source.onlyEvents) {
        rows += ' AND event IN {only_events:Array(String)}';
        params.only_events = source.onlyEvents;
      }
      if (source.seenOn) {
        seen = 'max(event IN {seen_on:Array(String)})';
        params.seen_on = source.seenOn;
      }
    } else if (source.kind === 'group') {
      rows = `SELECT argMax(properties, version) AS properties FROM ${this.db}.${TABLES.groups}
              WHERE team_id = {team:UInt64} AND group_type_index = {group_type_index:UInt8} GROUP BY group_key`;
      params.group_type_index = source.groupTypeIndex;
    } else {
      // The latest version of each person, deleted ones left out. Aggregates get names of their
      // own: `argMax(properties, version) AS properties` would be read as an aggregate of itself.
      rows = `SELECT latest_properties AS properties FROM (
                SELECT id, argMax(properties, version) AS latest_properties, argMax(is_deleted, version) AS latest_deleted
                FROM ${this.db}.${TABLES.persons}
                WHERE team_id = {team:UInt64}
                GROUP BY id
              ) WHERE NOT latest_deleted`;
    }

    const conditions: string[] = [];
    if (filter.search !== null) {
      conditions.push('positionCaseInsensitiveUTF8(kv.1, {search:String}) > 0');
      params.search = filter.search;
    }
    if (filter.excludeNames.length > 0) {
      conditions.push('kv.1 NOT IN {exclude_names:Array(String)}');
      params.exclude_names = filter.excludeNames;
    }
    if (filter.excludePrefixes.length > 0) {
      conditions.push('NOT arrayExists(prefix -> startsWith(kv.1, prefix), {exclude_prefixes:Array(String)})');
      params.exclude_prefixes = filter.excludePrefixes;
    }
    if (filter.requirePrefix !== null) {
      conditions.push('startsWith(kv.1, {require_prefix:String})');
      params.require_prefix = filter.requirePrefix;
    }
    if (filter.onlyNames) {
      conditions.push('kv.1 IN {only_names:Array(String)}');
      params.only_names = filter.onlyNames;
    }
    let having = '';
    if (filter.numerical) {
      having = `HAVING name IN {numeric_names:Array(String)}
        OR (name NOT IN {typed_names:Array(String)} AND has(kinds, 'number') AND arrayAll(k -> k IN ('number', 'null'), kinds))`;
      params.numeric_names = filter.numerical.numericNames;
      params.typed_names = filter.numerical.typedNames;
    }

    const result = await this.counted<Omit<PropertyKeyRow, 'seen'> & { seen: number | string | null }>(
      `SELECT kv.1 AS name, groupUniqArray(${VALUE_KIND_SQL}) AS kinds, ${seen} AS seen, count() OVER () AS total
       FROM (${rows})
       ARRAY JOIN JSONExtractKeysAndValuesRaw(properties) AS kv
       ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
       GROUP BY name
       ${having}
       ORDER BY ${seen === 'NULL' ? '' : 'seen DESC, '}name`,
      params,
      page,
    );
    return {
      total: result.total,
      rows: result.rows.map((row) => ({ ...row, seen: row.seen === null ? null : Number(row.seen) > 0 })),
    };
  }

  /**
   * Values a property of the project's events had since `since` (PostHog's text of a value: the
   * raw JSON without its surrounding quotes), most frequent first; `contains` keeps those holding
   * it in any case, `eventNames` only those events' values.
   */
  async eventPropertyValues(teamId: number, key: string, options: { contains: string | null; eventNames: readonly string[]; since: string; limit: number }): Promise<string[]> {
    const params: QueryParams = { team: teamId, key, since: options.since, limit: options.limit };
    let where = `team_id = {team:UInt64} AND timestamp >= parseDateTime64BestEffort({since:String}, 6, 'UTC') AND JSONHas(properties, {key:String})`;
    if (options.eventNames.length > 0) {
      where += ' AND event IN {event_names:Array(String)}';
      params.event_names = options.eventNames;
    }
    return this.values(`SELECT ${PROPERTY_TEXT_SQL} AS value FROM ${this.db}.${TABLES.events} WHERE ${where}`, params, options.contains);
  }

  /** Values a property of the project's live persons has, most frequent first, with how many persons have each. */
  async personPropertyValues(teamId: number, key: string, options: { contains: string | null; limit: number }): Promise<{ value: string; count: number }[]> {
    const params: QueryParams = { team: teamId, key, limit: options.limit };
    const persons = `SELECT argMax(properties, version) AS properties, argMax(is_deleted, version) AS latest_deleted
                     FROM ${this.db}.${TABLES.persons} WHERE team_id = {team:UInt64} GROUP BY id`;
    const rows = await this.valueRows(`SELECT ${PROPERTY_TEXT_SQL} AS value FROM (${persons}) WHERE NOT latest_deleted AND JSONHas(properties, {key:String})`, params, options.contains);
    return rows.map((row) => ({ value: row.value, count: Number(row.count) }));
  }

  private async values(rowsSql: string, params: QueryParams, contains: string | null): Promise<string[]> {
    return (await this.valueRows(rowsSql, params, contains)).map((row) => row.value);
  }

  private async valueRows(rowsSql: string, params: QueryParams, contains: string | null): Promise<{ value: string; count: string | number }[]> {
    let filter = "value != ''";
    if (contains !== null) {
      filter += ' AND positionCaseInsensitiveUTF8(value, {contains:String}) > 0';
      params.contains = contains;
    }
    return this.read(`SELECT value, count() AS count FROM (${rowsSql}) WHERE ${filter} GROUP BY value ORDER BY count DESC, value LIMIT {limit:UInt64}`, params);
  }

  private async read<Row>(sql: string, params: QueryParams): Promise<Row[]> {
    try {
      // Every read here is one project's (`team`): it takes that project's turn on the query lane.
      const tenant = typeof params.team === 'number' ? params.team : undefined;
      return await this.store.query<Row>(sql, params, { lane: 'query', timeoutSeconds: this.timeoutSeconds, ...(tenant === undefined ? {} : { tenant }) });
    } catch (error) {
      // TIMEOUT_EXCEEDED: the scan ran past the query time limit.
      if (String((error as { code?: unknown }).code ?? '') === '159') throw new QueryTimeoutError(this.timeoutSeconds);
      throw error;
    }
  }

  /** Runs a grouped SELECT that has a `total` window column, with the page's LIMIT and OFFSET. */
  private async counted<Row>(sql: string, params: QueryParams, page: PageWindow | null): Promise<CountedRows<Row>> {
    const paged = page ? `${sql}\nLIMIT {limit:UInt64} OFFSET {offset:UInt64}` : sql;
    const allParams = page ? { ...params, limit: page.limit, offset: page.offset } : params;
    const rows = await this.read<Row & TotalRow>(paged, allParams);
    const total = rows[0] ? Number(rows[0].total) : 0;
    return { total, rows: rows.map(({ total: _total, ...row }) => row as unknown as Row) };
  }
}
