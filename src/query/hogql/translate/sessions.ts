// HogQL's `sessions` table, and the `session` of an event: the project's events grouped by their
// `$session_id` (events without one belong to no session), with PostHog's session fields. As in
// PostHog, the aggregates are kept at insert (the event store's `sessions` table, migration 4:
// states per session, fed by a materialized view); a query reads the table with FINAL, so the
// engine merges each session's states as it reads them (and not at all where no other part holds
// the same sessions, which is most of a live table), and it never scans a session's events again.
// FINAL's merge of sorted parts took a quarter to a half of GROUP BY session_id with -Merge
// combinators (1.4 M sessions: 0.35 s against 1.2 s; bench/README.md). Definitions follow PostHog's sessions tables:
// entry and end values are those of the session's first and last event (empty and "null" as
// NULL), the duration is whole seconds from first to last event, and a session with page views
// is a bounce unless it has more than one, any autocapture, or lasts 10 seconds or more.
import { alias, call, constant, eq, field, leftJoin, not, or, select, subquery, table } from '../../ast/build.js';
import type { Expr, FromItem, Join, Select } from '../../ast/nodes.js';
import { SESSION_COUNTED_EVENTS, SESSION_ENTRY_CLICK_IDS, SESSION_ENTRY_PROPERTIES, SESSION_SMALL_COUNTS } from '../../../storage/events/migrations/0004_sessions.js';
import { HogQLQueryError } from '../errors.js';
import { sessionChannelType } from './channel-type.js';
import type { Chain, ScopedTable, TableContext } from './tables.js';
import { typed, type HogQLType } from './types.js';

const RAW = 'raw';
const column = (name: string) => field(name, RAW);
/** A stored aggregate state's value: FINAL has merged the session's states into one. */
const finalized = (name: string) => call('finalizeAggregation', column(name));
const blankAsNull = (value: Expr) => call('nullIf', call('nullIf', value, constant('null')), constant(''));
/**
 * A property's value at the session's first event: its own column, or an element of the click ids'
 * tuple state (migration 7's layout); a field reading anything else fails at load.
 */
function firstValue(key: string): Expr {
  const name = Object.keys(SESSION_ENTRY_PROPERTIES).find((column) => SESSION_ENTRY_PROPERTIES[column as keyof typeof SESSION_ENTRY_PROPERTIES] === key);
  if (name) return finalized(name);
  const index = SESSION_ENTRY_CLICK_IDS.indexOf(key as (typeof SESSION_ENTRY_CLICK_IDS)[number]);
  if (index < 0) throw new Error(`the sessions table keeps no ${key}: add it in an event-store migration`);
  return call('tupleElement', finalized('entry_click_ids'), constant(index + 1, 'UInt8'));
}
const first = (key: string) => blankAsNull(firstValue(key));
/** The URL of the session's last event (the one end value the table keeps). */
const last = (key: string) => {
  if (key !== '$current_url') throw new Error(`the sessions table keeps no last ${key}: add it in an event-store migration`);
  return blankAsNull(finalized('end_current_url'));
};
/** Distinct event uuids of one name (a re-inserted event counts once). */
const countOf = (event: string) => {
  const name = Object.keys(SESSION_COUNTED_EVENTS).find((column) => SESSION_COUNTED_EVENTS[column as keyof typeof SESSION_COUNTED_EVENTS] === event);
  if (!name) throw new Error(`the sessions table counts no ${event}: add it in an event-store migration`);
  return finalized(name);
};
/** A count that stops past a few (SESSION_SMALL_COUNTS): cheap to merge, enough for the bounce rate. */
const smallCount = (name: keyof typeof SESSION_SMALL_COUNTS) => finalized(name);
// SimpleAggregateFunction columns: FINAL leaves the merged value itself.
const start = () => column('min_timestamp');
const end = () => column('max_timestamp');
const duration = () => call('dateDiff', constant('second'), start(), end());

/** PostHog's DEFAULT_BOUNCE_RATE_DURATION_SECONDS. */
const BOUNCE_SECONDS = 10;

interface SessionField {
  readonly type: HogQLType;
  readonly nullable: boolean;
  readonly expr: () => Expr;
}

const text = (expr: () => Expr): SessionField => ({ type: 'string', nullable: true, expr });

const FIELDS: Record<string, SessionField> = {
  session_id: { type: 'string', nullable: false, expr: () => column('session_id') },
  // nullIf(argMaxMerge(distinct_id), 'null') in PostHog's tables: a Nullable(String).
  distinct_id: { type: 'string', nullable: true, expr: () => call('nullIf', finalized('distinct_id'), constant('null')) },
  $start_timestamp: { type: 'datetime', nullable: false, expr: start },
  $end_timestamp: { type: 'datetime', nullable: false, expr: end },
  $session_duration: { type: 'integer', nullable: false, expr: duration },
  // Empty URLs are left out at insert.
  $urls: { type: 'unknown', nullable: false, expr: () => finalized('urls') },
  $entry_current_url: text(() => first('$current_url')),
  $end_current_url: text(() => last('$current_url')),
  $entry_pathname: text(() => call('path', first('$current_url'))),
  $end_pathname: text(() => call('path', last('$current_url'))),
  $entry_hostname: text(() => call('domain', first('$current_url'))),
  $end_hostname: text(() => call('domain', last('$current_url'))),
  $entry_referring_domain: text(() => first('$referring_domain')),
  $entry_referrer: text(() => first('$referrer')),
  $entry_utm_source: text(() => first('utm_source')),
  $entry_utm_campaign: text(() => first('utm_campaign')),
  $entry_utm_medium: text(() => first('utm_medium')),
  $entry_utm_term: text(() => first('utm_term')),
  $entry_utm_content: text(() => first('utm_content')),
  $entry_gclid: text(() => first('gclid')),
  $entry_gad_source: text(() => first('gad_source')),
  $entry_fbclid: text(() => first('fbclid')),
  $channel_type: text(() => sessionChannelType((name) => FIELDS[name]!.expr())),
  // The last non-empty one (the condition is applied at insert).
  $last_external_click_url: text(() => blankAsNull(finalized('last_external_click_url'))),
  // The session's first Largest Contentful Paint, from any event that carries one (a number or numeric text).
  $vitals_lcp: { type: 'float', nullable: true, expr: () => finalized('vitals_lcp') },
  $pageview_count: { type: 'integer', nullable: false, expr: () => countOf('$pageview') },
  $autocapture_count: { type: 'integer', nullable: false, expr: () => countOf('$autocapture') },
  $screen_count: { type: 'integer', nullable: false, expr: () => countOf('$screen') },
  // PostHog's bounce-rate input: page views, screens and autocaptures, counted no further than 2.
  $page_screen_autocapture_count_up_to: {
    type: 'integer', nullable: false,
    expr: () => call('least', smallCount('page_screen_autocaptures_up_to_2'), constant(2)),
  },
  $is_bounce: {
    type: 'boolean',
    nullable: true,
    // NULL as ClickHouse types the literal, so the field is Nullable(UInt8) as in PostHog (avg() takes it).
    // From the small counts (0, 1 or more page views; any autocapture): the same answer, cheaper to merge.
    expr: () => call('if', call('equals', smallCount('pageviews_up_to_2'), constant(0)), constant(null, 'Nullable(Nothing)'),
      not(or(call('greater', smallCount('pageviews_up_to_2'), constant(1)), call('greater', smallCount('autocaptures_up_to_1'), constant(0)), call('greaterOrEquals', duration(), constant(BOUNCE_SECONDS))))),
  },
};

// Built once at load: a field reading a value the stored table does not keep fails every test, not a query.
for (const spec of Object.values(FIELDS)) spec.expr();

/** The sessions table's fields in order, with their types (HogQLAutocomplete lists them). */
export const SESSION_FIELD_TYPES: readonly { readonly name: string; readonly type: HogQLType; readonly nullable: boolean }[] = Object.freeze(
  Object.entries(FIELDS).map(([name, spec]) => Object.freeze({ name, type: spec.type, nullable: spec.nullable })),
);

/** Other names PostHog accepts for a field. */
const ALIASES: Record<string, string> = {
  id: 'session_id', duration: '$session_duration', $exit_current_url: '$end_current_url', $exit_pathname: '$end_pathname',
};

const STAR = ['session_id', 'distinct_id', '$start_timestamp', '$end_timestamp', '$session_duration', '$entry_current_url', '$end_current_url', '$pageview_count', '$autocapture_count', '$screen_count', '$is_bounce'];

/** One row per session of the project with the `fields` read. */
function sessionRows(fields: ReadonlySet<string>): Select {
  const names = [...fields].filter((name) => name !== 'session_id').sort();
  return select({
    select: [alias(column('session_id'), 'session_id'), ...names.map((name) => alias(FIELDS[name]!.expr(), name))],
    // FINAL leaves one row per sorting key (team, start hint, session id): one per session.
    from: { ...table('sessions', RAW), final: true },
  });
}

/** Resolves a session field name (or PostHog's other name for it); undefined when there is none. */
function fieldName(name: string | number | undefined): string | undefined {
  if (typeof name !== 'string') return undefined;
  const canonical = ALIASES[name] ?? name;
  return Object.hasOwn(FIELDS, canonical) ? canonical : undefined;
}

/** A session field read through `alias`, typed as PostHog types it (DateTimes in the project's zone). */
function readField(alias: string, name: string, timezone: string): Expr {
  const spec = FIELDS[name]!;
  const value = field(name, alias);
  if (spec.type === 'datetime') return typed(call('toTimeZone', value, constant(timezone)), 'datetime', false);
  return typed(value, spec.type, spec.nullable);
}

/** `sessions` in a FROM. */
export class SessionsTable implements ScopedTable {
  readonly from: FromItem;
  private readonly read = new Set<string>();

  constructor(readonly alias: string, private readonly context: TableContext) {
    this.from = subquery(sessionRows(new Set(STAR)), alias);
  }

  asterisk(): string[] {
    return STAR;
  }

  resolve(chain: Chain): Expr | undefined {
    const name = fieldName(chain[0]);
    if (!name) return undefined;
    if (chain.length > 1) throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
    this.read.add(name);
    return readField(this.alias, name, this.context.timezone);
  }

  markRead(name: string): void {
    const canonical = fieldName(name);
    if (canonical) this.read.add(canonical);
  }

  joins(): Join[] {
    return [];
  }

  finalFrom(): FromItem {
    return subquery(sessionRows(this.read), this.alias);
  }
}

/** An event's `session`: a LEFT JOIN on `$session_id` to the sessions it belongs to, added once read. */
export class EventSession {
  private readonly read = new Set<string>();

  constructor(private readonly eventsAlias: string, private readonly context: TableContext) {}

  private get alias(): string {
    return `${this.eventsAlias}__session`;
  }

  resolve(chain: Chain): Expr {
    const name = fieldName(chain[0]);
    if (!name || chain.length > 1) throw new HogQLQueryError(`Unable to resolve field: session.${chain.join('.')}`);
    this.read.add(name);
    return readField(this.alias, name, this.context.timezone);
  }

  joins(): Join[] {
    if (this.read.size === 0) return [];
    return [leftJoin(subquery(sessionRows(this.read), this.alias), eq(field('session_id', this.alias), field('$session_id', this.eventsAlias)))];
  }
}
