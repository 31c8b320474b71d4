// Sessions kept at insert (PostHog's raw_sessions): one row of aggregate states per (project,
// $session_id) and inserted block, fed by a materialized view on the events, merged by the engine
// in the background and by queries with -Merge combinators (src/query/hogql/translate/sessions.ts).
// A query that reads `session.*` then reads this small table instead of every event of the
// project a second time. Every state is idempotent (min, max, argMin, argMax, distinct values,
// distinct uuids), so an event inserted twice (a write retried after its view failed, the crash
// repair, a re-run backfill) changes nothing: counts are distinct event uuids, as PostHog's are.
// Properties are parsed once per event (one JSONExtract of a named tuple, which reads each key as
// JSONExtractString does). The entry values queries read (URL, referrer, UTM values, the click ids
// channel types use) have a column each: reading one out of a tuple state deserialises them all
// (209 ms against 21 ms for 83k sessions). The rarer click ids share one tuple state, so they cost
// one timestamp, not fifteen (a column per value doubled the table for short sessions). Beside the
// exact counts (uniqExact of uuids: a hash set to read per session), the bounce rate reads counts
// that stop at 2 (uniqUpTo: at most three hashes), which merge 5x faster.
// The key starts with the session's start as its id tells it (`session_start_hint`: the time part
// of a UUIDv7 `$session_id`, as posthog-js makes them; the epoch for any other id), as PostHog's
// sessions are ordered by their v7 id: a query over a time range reads only the sessions whose id
// time lies near it, and every session whose id carries no time (src/query/passes/bound-session-reads.ts).
import type { EventStore } from '../event-store.js';
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

/**
 * Properties whose value at the session's first event is kept (argMin by timestamp), by column.
 * The attribution set is PostHog's (raw_sessions' initial_* columns), so channel types can be
 * told from them; the rarer click ids are in SESSION_ENTRY_CLICK_IDS.
 */
export const SESSION_ENTRY_PROPERTIES = {
  entry_current_url: '$current_url',
  entry_referring_domain: '$referring_domain',
  entry_referrer: '$referrer',
  entry_utm_source: 'utm_source',
  entry_utm_campaign: 'utm_campaign',
  entry_utm_medium: 'utm_medium',
  entry_utm_term: 'utm_term',
  entry_utm_content: 'utm_content',
  entry_gclid: 'gclid',
  entry_gad_source: 'gad_source',
  entry_fbclid: 'fbclid',
} as const;

/** More entry values, in the order of the `entry_click_ids` tuple state. */
export const SESSION_ENTRY_CLICK_IDS = [
  'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'twclid', 'li_fat_id', 'mc_cid', 'igshid', 'ttclid', 'epik', 'qclid', 'sccid', '_kx', 'irclid',
] as const;

/** Events counted per session (distinct uuids), by column. */
export const SESSION_COUNTED_EVENTS = { pageview_uuids: '$pageview', autocapture_uuids: '$autocapture', screen_uuids: '$screen' } as const;

/**
 * Small counts (distinct uuids, exact up to `upTo`, `upTo + 1` beyond it) of the events named, by
 * column: what the bounce rate asks (more than one page view? any autocapture? page views,
 * screens and autocaptures up to 2). Exact as long as two uuids of a session do not share a
 * 64-bit hash.
 */
export const SESSION_SMALL_COUNTS = {
  pageviews_up_to_2: { upTo: 2, events: ['$pageview'] },
  autocaptures_up_to_1: { upTo: 1, events: ['$autocapture'] },
  page_screen_autocaptures_up_to_2: { upTo: 2, events: ['$pageview', '$screen', '$autocapture'] },
} as const;

const TIME = "DateTime64(6, 'UTC')";
const ENTRY_COLUMNS = Object.keys(SESSION_ENTRY_PROPERTIES);
const COUNT_COLUMNS = Object.keys(SESSION_COUNTED_EVENTS);
const strings = (n: number) => `Tuple(${Array.from({ length: n }, () => 'String').join(', ')})`;

/** Every key read from an event's properties, parsed in one pass. */
const READ_KEYS = [...new Set<string>([...Object.values(SESSION_ENTRY_PROPERTIES), ...SESSION_ENTRY_CLICK_IDS, '$external_click_url', '$web_vitals_LCP_value'])];
const prop = (key: string) => `p.${READ_KEYS.indexOf(key) + 1}`;
const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const tupleType = `Tuple(${READ_KEYS.map((key) => `\`${key}\` String`).join(', ')})`;

function columns(): string {
  return [
    'team_id UInt64',
    'session_id String',
    // In the order of sessionStatesSelect: the backfill inserts by position.
    "session_start_hint DateTime('UTC')",
    `min_timestamp SimpleAggregateFunction(min, ${TIME})`,
    `max_timestamp SimpleAggregateFunction(max, ${TIME})`,
    `distinct_id AggregateFunction(argMax, String, ${TIME})`,
    ...ENTRY_COLUMNS.map((name) => `${name} AggregateFunction(argMin, String, ${TIME})`),
    `entry_click_ids AggregateFunction(argMin, ${strings(SESSION_ENTRY_CLICK_IDS.length)}, ${TIME})`,
    `end_current_url AggregateFunction(argMax, String, ${TIME})`,
    'urls AggregateFunction(groupUniqArray, String)',
    `last_external_click_url AggregateFunction(argMax, String, ${TIME})`,
    `vitals_lcp AggregateFunction(argMin, Nullable(Float64), ${TIME})`,
    ...COUNT_COLUMNS.map((name) => `${name} AggregateFunction(uniqExact, UUID)`),
    ...Object.entries(SESSION_SMALL_COUNTS).map(([name, { upTo }]) => `${name} AggregateFunction(uniqUpTo(${upTo}), UUID)`),
  ].join(',\n      ');
}

/**
 * How each stored column's rows of one session combine, for a read that groups them itself
 * instead of reading with FINAL (query/passes/group-session-states.ts: on a cluster, and reads
 * narrowed to listed ids): the plain aggregate of a SimpleAggregateFunction column, the -Merge
 * of a state's function.
 */
export function sessionColumnMerge(column: string): { readonly name: string; readonly params?: readonly number[] } | undefined {
  if (column === 'min_timestamp') return { name: 'min' };
  if (column === 'max_timestamp') return { name: 'max' };
  if (column === 'distinct_id' || column === 'end_current_url' || column === 'last_external_click_url') return { name: 'argMaxMerge' };
  if (column === 'entry_click_ids' || column === 'vitals_lcp' || ENTRY_COLUMNS.includes(column)) return { name: 'argMinMerge' };
  if (column === 'urls') return { name: 'groupUniqArrayMerge' };
  if (COUNT_COLUMNS.includes(column)) return { name: 'uniqExactMerge' };
  const small = SESSION_SMALL_COUNTS[column as keyof typeof SESSION_SMALL_COUNTS];
  return small ? { name: 'uniqUpToMerge', params: [small.upTo] } : undefined;
}

/**
 * The time part of a UUIDv7 `$session_id` (milliseconds since the epoch, first 48 bits), to the
 * second; the epoch for any other id (not a UUID, or a UUID of another version).
 */
export const SESSION_START_HINT = "toDateTime(UUIDv7ToDateTime(toUUIDOrZero(`$session_id`)), 'UTC')";

/** The aggregate states of the events `source` yields (already filtered), grouped per session. */
export function sessionStatesSelect(source: string): string {
  const lcp = `toFloat64OrNull(${prop('$web_vitals_LCP_value')})`;
  return `SELECT
      team_id,
      \`$session_id\` AS session_id,
      ${SESSION_START_HINT} AS session_start_hint,
      min(timestamp) AS min_timestamp,
      max(timestamp) AS max_timestamp,
      argMaxState(sender, timestamp) AS distinct_id,
      ${Object.entries(SESSION_ENTRY_PROPERTIES).map(([name, key]) => `argMinState(${prop(key)}, timestamp) AS ${name}`).join(',\n      ')},
      argMinState(tuple(${SESSION_ENTRY_CLICK_IDS.map(prop).join(', ')}), timestamp) AS entry_click_ids,
      argMaxState(${prop('$current_url')}, timestamp) AS end_current_url,
      groupUniqArrayIfState(${prop('$current_url')}, notEmpty(${prop('$current_url')})) AS urls,
      argMaxIfState(${prop('$external_click_url')}, timestamp, notEmpty(${prop('$external_click_url')})) AS last_external_click_url,
      -- argMin passes over NULL values: the first event that has one.
      argMinState(${lcp}, timestamp) AS vitals_lcp,
      ${Object.entries(SESSION_COUNTED_EVENTS).map(([name, event]) => `uniqExactIfState(uuid, event = ${quote(event)}) AS ${name}`).join(',\n      ')},
      ${Object.entries(SESSION_SMALL_COUNTS).map(([name, { upTo, events }]) => `uniqUpToIfState(${upTo})(uuid, event IN (${events.map(quote).join(', ')})) AS ${name}`).join(',\n      ')}
    FROM (SELECT *, distinct_id AS sender, JSONExtract(properties, ${quote(tupleType)}) AS p FROM ${source})
    GROUP BY team_id, \`$session_id\`, session_start_hint`;
}

/** The events of `table` that belong to a session, narrowed by `where` (SQL of ours, or nothing). */
export const sessionEvents = (table: string, where = '') => `${table} WHERE notEmpty(\`$session_id\`)${where ? ` AND ${where}` : ''}`;

function sessionsTable(d: Ddl): string[] {
  const local = d.storageName(TABLES.sessions);
  const eventsLocal = d.storageName(TABLES.events);
  const front = d.distributedFront(TABLES.sessions, 'cityHash64(session_id)');
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${local}${d.onCluster} (
      ${columns()}
    )
    ENGINE = ${d.aggregating(TABLES.sessions)}
    ORDER BY (team_id, session_start_hint, session_id)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d.db}.${local}_mv${d.onCluster} TO ${d.db}.${local}
      AS ${sessionStatesSelect(sessionEvents(`${d.db}.${eventsLocal}`))}`,
    // Only the backfill and repairs write through the front; the view writes each shard's own table.
    ...(front ? [front] : []),
  ];
}

/** Backfill time limit per day: a day of a large store is aggregated in one statement. */
const BACKFILL_SECONDS = 3_600;

/**
 * The backfill's memory budget, whatever the store's size: one day of events per statement, and
 * a grouping past BACKFILL_GROUP_BYTES spills to disk instead of growing (chDB honours it).
 */
export const BACKFILL_GROUP_BYTES = 256 * 1024 * 1024;
const BACKFILL_SETTINGS = { max_bytes_before_external_group_by: String(BACKFILL_GROUP_BYTES) };

/**
 * The events stored before the view existed, one day of events at a time (so memory holds one
 * day's sessions, not a month's or the store's). A session spanning midnight gets one row of states
 * per day, merged like any other. Events the view already counted are counted once anyway, so a
 * backfill cut short and run again adds nothing twice.
 */
async function backfill(store: EventStore, d: Ddl): Promise<void> {
  const events = `${d.db}.${TABLES.events}`;
  // chDB keeps a statement's settings for the ones after it: restore these when done.
  const names = Object.keys(BACKFILL_SETTINGS);
  const before = await store.query<{ name: string; value: string }>('SELECT name, value FROM system.settings WHERE name IN {names:Array(String)}', { names });
  const days = await store.query<{ day: string }>(`SELECT DISTINCT toDate(timestamp) AS day FROM ${events} ORDER BY day`, {}, { timeoutSeconds: BACKFILL_SECONDS });
  try {
    for (const { day } of days) {
      await store.command(
        `INSERT INTO ${d.db}.${TABLES.sessions} ${sessionStatesSelect(sessionEvents(events, 'toDate(timestamp) = {day:Date}'))}`,
        { day },
        { timeoutSeconds: BACKFILL_SECONDS, settings: BACKFILL_SETTINGS },
      );
    }
  } finally {
    await store.query('SELECT 1', {}, { settings: Object.fromEntries(before.map(({ name, value }) => [name, value])) });
  }
}

export const sessions: EventStoreMigration = {
  version: 4,
  name: 'sessions',
  statements: sessionsTable,
  backfill,
};
